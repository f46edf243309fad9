/**
 * How an agent product runs inside the trial's sandbox: where its package, the harness's
 * endpoint, its state and its temporary files are mounted, and the forwarder that carries its
 * model requests from a port of the sandbox's own network namespace to the endpoint's unix
 * socket. One run for every product (Claude Code, Codex, Gemini CLI): the product's argv and environment
 * are all that differ.
 */
import type { ProcessAgentContext } from "../types.ts";
import type { ModelEndpoint } from "./endpoint.ts";
import type { InstalledProduct } from "./install.ts";

/** Where things are inside the sandbox. */
export const PRODUCT_MOUNT = "/opt/gatebench/product";
export const ENDPOINT_MOUNT = "/opt/gatebench/endpoint";
export const STATE_MOUNT = "/opt/gatebench/product-state";
export const PRODUCT_TMP = "/opt/gatebench/product-tmp";
/** The sandbox's node (the host's, bound with /usr): runs the forwarder, and products that are Node programs. */
export const SANDBOX_NODE = "/usr/bin/node";
/** The port the forwarder listens on inside the sandbox (its own network namespace). */
export const FORWARD_PORT = 8765;

/**
 * The forwarder and launcher, run by the sandbox's node: listens on 127.0.0.1:<port>, pipes
 * every connection to the endpoint's unix socket, starts the product with the rest of argv, and
 * exits with its exit code. Its own messages go to stderr.
 */
export const FORWARDER_SOURCE = `
const net = require("node:net");
const { spawn } = require("node:child_process");
const [port, socket, ...argv] = process.argv.slice(1);
const server = net.createServer((c) => {
  const u = net.connect(socket);
  c.pipe(u); u.pipe(c);
  c.on("error", () => u.destroy()); u.on("error", () => c.destroy());
});
server.on("error", (e) => { process.stderr.write("gatebench forwarder: " + e.message + "\\n"); process.exit(97); });
server.listen(Number(port), "127.0.0.1", () => {
  const child = spawn(argv[0], argv.slice(1), { stdio: ["ignore", "inherit", "inherit"] });
  child.on("error", (e) => { process.stderr.write("gatebench launcher: " + e.message + "\\n"); process.exit(98); });
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 128 : 99)));
});
`;

type WorldRun = Awaited<ReturnType<ProcessAgentContext["runInWorld"]>>;

/**
 * Runs the product behind the forwarder in the trial's world: its package and the endpoint's
 * folder read-only, its state and temporary folders on tmpfs. Returns the run and its wall time.
 */
export async function runBehindEndpoint(
  ctx: ProcessAgentContext,
  install: InstalledProduct,
  endpoint: ModelEndpoint,
  productArgv: readonly string[],
  env: Readonly<Record<string, string>>,
): Promise<{ run: WorldRun; ms: number }> {
  const argv = [SANDBOX_NODE, "-e", FORWARDER_SOURCE, String(FORWARD_PORT), `${ENDPOINT_MOUNT}/model.sock`, ...productArgv];
  const started = performance.now();
  const run = await ctx.runInWorld(argv, {
    timeoutMs: ctx.timeoutMs,
    readOnlyBinds: [
      { hostPath: install.dir, sandboxPath: PRODUCT_MOUNT },
      { hostPath: endpoint.dir, sandboxPath: ENDPOINT_MOUNT },
    ],
    tmpfs: [STATE_MOUNT, PRODUCT_TMP],
    env,
  });
  return { run, ms: Math.round(performance.now() - started) };
}

/** The fields of the `product_exit` event every product logs; each adds what its own output says. */
export function productExitFields(install: InstalledProduct, endpoint: ModelEndpoint, run: WorldRun, ms: number) {
  return {
    product: `${install.name}@${install.version}`,
    exit_code: run.exitCode,
    ms,
    requests: endpoint.stats.requests,
    ...(endpoint.stats.other.length ? { other_requests: endpoint.stats.other.slice(0, 10) } : {}),
    ...(run.exitCode !== 0 ? { stderr: run.stderr.slice(-1000) } : {}),
  };
}
