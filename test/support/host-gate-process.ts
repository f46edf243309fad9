/**
 * EnvView.runGateProcess for fake worlds in unit tests: runs the program on the host (no
 * sandbox) with sandbox paths of its argv mapped back to the host (the read-only binds, and
 * /opt/gatebench/node_modules to the repository's node_modules), a clear environment and the
 * same time limit. Only for test code: real worlds run gate processes inside bwrap.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { GateProcessBind, GateProcessOutput } from "../../gates/types.ts";

const NODE_MODULES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../node_modules");

export async function runGateProcessOnHost(
  argv: string[],
  stdin: string,
  timeoutMs: number,
  binds: readonly GateProcessBind[] = [],
): Promise<GateProcessOutput> {
  const map = [...binds.map((b) => [b.sandboxPath, b.hostPath] as const), ["/opt/gatebench/node_modules", NODE_MODULES] as const];
  const toHost = (arg: string) => {
    for (const [sandbox, host] of map) if (arg === sandbox || arg.startsWith(`${sandbox}/`)) return host + arg.slice(sandbox.length);
    // JSON arguments (the extension list) carry sandbox paths too.
    return map.reduce((a, [sandbox, host]) => a.split(`"${sandbox}/`).join(`"${host}/`), arg);
  };
  const [cmd, ...rest] = argv.map(toHost);
  const child = spawn(cmd!, rest, { env: { PATH: "/usr/bin:/bin" }, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
  child.stdin.on("error", () => undefined);
  child.stdin.end(stdin);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, timeoutMs);
  return new Promise((resolve) => {
    child.on("close", (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, stdout, stderr, timedOut });
    });
  });
}
