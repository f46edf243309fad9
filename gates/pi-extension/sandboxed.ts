/**
 * Untrusted extensions (a project's `.pi/extensions`, or a file a gate configuration names:
 * configured.ts) as a gate whose code never runs in the harness process: they are loaded in a separate process inside the trial's sandbox
 * (EnvView.runGateProcess: the world read-only, no host files beyond it, no network, a clear
 * environment) and asked over a Unix socket, one JSON line per message (sandbox/serve.ts).
 *
 * The decision is made by the same code as the in-process gate (evaluate.ts: Pi's runner
 * semantics, integrity check, ctx.ui through the approver). Everything fails closed: a process
 * that does not start, dies, sends garbage or overruns its time denies the call, and a process
 * that overran is killed, so every later call is denied too.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { BlockCode } from "../../kernel/codes.ts";
import { GATE_TIMEOUT_MS } from "../stack.ts";
import type { ConfirmRequest, Decision, EnvView, GateContext, GateProcessBind, GateProcessOutput, ProposedCall } from "../types.ts";
import type { CallVerdict } from "./evaluate.ts";
import { verdictToDecision } from "./evaluate.ts";
import { recordViolation, type IntegrityViolation, type PiExtensionGate } from "./integrity.ts";
import { SERVING_MODULE, servingBundleDir, TRANSPILE_MODULE } from "./sandbox/bundle.ts";
import { prepareTransforms } from "./transformed.ts";

/** The repository's gates/pi-extension, bound read-only into the sandbox (the process's main module). */
export const SERVING_DIR = path.dirname(fileURLToPath(import.meta.url));
export const SANDBOX_SERVING_DIR = "/opt/gatebench/hooks/pi-extension";
/** The compiled worker module (sandbox/bundle.ts), bound read-only beside it. */
export const SANDBOX_WORKER_DIR = "/opt/gatebench/hooks/pi-extension-worker";
/** The host directory with the copied extension files and the socket. */
export const SANDBOX_PROJECT_DIR = "/opt/gatebench/hooks/project";
const SOCKET_NAME = "gate.sock";
/** Loading jiti, Pi's packages and the extensions. */
const LOAD_TIMEOUT_MS = 60_000;
/** One call's own work; the stack's limit is GATE_TIMEOUT_MS, so this ends first and kills the process. */
const CALL_TIMEOUT_MS = GATE_TIMEOUT_MS - 1_000;
/** Upper bound on the process's life; it normally ends with the trial (close() or the world's removal). */
const PROCESS_LIFETIME_MS = 4 * 60 * 60_000;

export interface SandboxedFile {
  /** Path of the copy inside the sandbox, under SANDBOX_PROJECT_DIR. */
  load: string;
  /** The file's path in the world, used in reports and errors. */
  name: string;
}

export interface SandboxedExtensionsGate extends PiExtensionGate {
  /** Sandbox paths (names) of the files that loaded; valid after load(). */
  readonly loaded: readonly string[];
  /** Stops the extension process. */
  close(): void;
}

interface Pending {
  n: number;
  ctx: GateContext;
  resolve: (d: CallVerdict | { failed: string; code: BlockCode }) => void;
  timer?: NodeJS.Timeout;
  remaining: number;
  armedAt: number;
}

/**
 * `hostDir` already holds the extension copies (it is bound at SANDBOX_PROJECT_DIR and removed
 * once the process has loaded them); `files` are loaded in this order. `opts.binds` shows more
 * host folders read-only (a configuration's extension with its package: configured.ts).
 */
export function createSandboxedExtensionsGate(
  name: string,
  env: EnvView,
  hostDir: string,
  files: readonly SandboxedFile[],
  opts: { callTimeoutMs?: number; binds?: readonly GateProcessBind[]; what?: string } = {},
): SandboxedExtensionsGate {
  const callTimeoutMs = opts.callTimeoutMs ?? CALL_TIMEOUT_MS;
  /** How block reasons name what failed. */
  const what = opts.what ?? "Project extensions";
  const are = opts.what === undefined ? "are" : "is";
  const violations: IntegrityViolation[] = [];
  const loaded: string[] = [];
  let socket: net.Socket | undefined;
  let server: net.Server | undefined;
  let dead: string | undefined;
  let loading: Promise<string[]> | undefined;
  let pending: Pending | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let nextCall = 0;

  const removeHostDir = () => rmSync(hostDir, { recursive: true, force: true });

  const kill = (why: string) => {
    dead ??= why;
    socket?.destroy();
    server?.close();
    removeHostDir();
    const p = pending;
    pending = undefined;
    if (p) {
      clearTimeout(p.timer);
      p.resolve({ failed: why, code: "extension_error" });
    }
  };

  const arm = (p: Pending) => {
    p.armedAt = performance.now();
    p.timer = setTimeout(
      () => {
        if (pending !== p) return;
        pending = undefined;
        kill(`the extension process did not answer within ${callTimeoutMs} ms and was stopped`);
        p.resolve({ failed: `extensions did not decide within ${callTimeoutMs} ms`, code: "gate_timeout" });
      },
      Math.max(0, p.remaining),
    );
  };

  const onMessage = (m: Record<string, unknown>) => {
    const p = pending;
    if (m.t === "fatal") return kill(`extension process failed: ${String(m.message)}`);
    if (!p || m.n !== p.n) return;
    if (m.t === "ask" && typeof m.q === "number") {
      clearTimeout(p.timer);
      p.remaining -= performance.now() - p.armedAt;
      const request = toRequest(m.request);
      const q = m.q;
      void (async () => {
        let answer: { ok: boolean } | { error: string };
        try {
          answer = { ok: request ? (await p.ctx.ui.confirm(request)) === true : false };
        } catch (e) {
          answer = { error: (e as Error)?.message ?? String(e) };
        }
        if (pending !== p) return;
        socket?.write(`${JSON.stringify({ t: "answer", q, ...answer })}\n`);
        arm(p);
      })();
    } else if (m.t === "verdict") {
      clearTimeout(p.timer);
      pending = undefined;
      const verdict = toVerdict(m.verdict);
      p.resolve(verdict ?? { failed: "the extension process sent a malformed verdict", code: "extension_error" });
    }
  };

  const start = async (): Promise<string[]> => {
    let workerDir: string;
    try {
      workerDir = await servingBundleDir();
    } catch (e) {
      kill((e as Error).message);
      return files.map((f) => `${f.name}: not loaded: ${dead}`);
    }
    const workerBind = { hostPath: workerDir, sandboxPath: SANDBOX_WORKER_DIR };
    const projectBind = { hostPath: hostDir, sandboxPath: SANDBOX_PROJECT_DIR };
    // The files' TypeScript transformed once per harness process, not by every extension process.
    const transformed = await prepareTransforms(
      env,
      files.map((f) => f.load),
      { program: `${SANDBOX_WORKER_DIR}/${TRANSPILE_MODULE}`, binds: [workerBind, projectBind], sandboxDir: SANDBOX_PROJECT_DIR, hostDir },
    );
    return new Promise<string[]>((resolve) => {
      if (!env.runGateProcess) {
        removeHostDir();
        dead = "no sandbox to run project extensions in";
        resolve(files.map((f) => `${f.name}: not loaded: ${dead}`));
        return;
      }
      let settled = false;
      const finish = (errors: string[]) => {
        if (settled) return;
        settled = true;
        clearTimeout(loadTimer);
        resolve(errors);
      };
      const failAll = (why: string) => {
        kill(why);
        finish(files.map((f) => `${f.name}: not loaded: ${why}`));
      };
      const loadTimer = setTimeout(() => failAll(`the extension process did not load within ${LOAD_TIMEOUT_MS} ms`), LOAD_TIMEOUT_MS);
      const socketPath = path.join(hostDir, SOCKET_NAME);
      server = net.createServer((conn) => {
        if (socket) return void conn.destroy();
        socket = conn;
        server?.close();
        conn.setEncoding("utf8");
        let buffered = "";
        conn.on("data", (chunk: string) => {
          buffered += chunk;
          for (let i = buffered.indexOf("\n"); i >= 0; i = buffered.indexOf("\n")) {
            const line = buffered.slice(0, i);
            buffered = buffered.slice(i + 1);
            let m: unknown;
            try {
              m = JSON.parse(line);
            } catch {
              continue;
            }
            if (!m || typeof m !== "object") continue;
            const msg = m as Record<string, unknown>;
            if (!settled && msg.t === "ready") {
              loaded.push(...strings(msg.loaded).filter((f) => files.some((x) => x.name === f)));
              removeHostDir();
              finish(strings(msg.errors));
            } else if (!settled && msg.t === "fatal") {
              failAll(`extension process failed: ${String(msg.message)}`);
            } else onMessage(msg);
          }
        });
        conn.on("close", () => {
          if (!settled) failAll("the extension process ended before it loaded");
          else kill("the extension process ended");
        });
        conn.on("error", () => undefined);
      });
      server.on("error", (e) => failAll(`cannot open the extension socket: ${e.message}`));
      server.listen(socketPath, () => {
        // The sandbox may run as another user: it must reach the socket and read the copies.
        chmodSync(socketPath, 0o666);
        const argv = [
          "/usr/bin/node",
          `${SANDBOX_SERVING_DIR}/sandbox/main.mjs`,
          `${SANDBOX_PROJECT_DIR}/${SOCKET_NAME}`,
          JSON.stringify(files),
          `${SANDBOX_WORKER_DIR}/${SERVING_MODULE}`,
          ...(transformed ? [transformed] : []),
        ];
        const binds = [{ hostPath: SERVING_DIR, sandboxPath: SANDBOX_SERVING_DIR }, workerBind, projectBind, ...(opts.binds ?? [])];
        env.runGateProcess!(argv, "", PROCESS_LIFETIME_MS, binds, { persistent: true }).then(
          (out: GateProcessOutput) => {
            const tail = `${out.stderr}`.trim().split("\n").slice(-3).join(" | ").slice(0, 600);
            const why = `the extension process exited (${out.timedOut ? "timed out" : `code ${out.exitCode}`})${tail ? `: ${tail}` : ""}`;
            if (!settled) failAll(why);
            else kill(why);
          },
          (e: unknown) => failAll(`the extension process could not start: ${(e as Error)?.message ?? String(e)}`),
        );
      });
    });
  };

  const load = () => (loading ??= start());

  const decideOnce = async (call: ProposedCall, ctx: GateContext): Promise<Decision> => {
    await load();
    if (dead !== undefined)
      return {
        kind: "deny",
        code: "extension_error",
        reason: `${what} ${are} unavailable, blocking execution: ${dead}`,
      };
    if (loaded.length === 0) return { kind: "allow" };
    const n = ++nextCall;
    const outcome = await new Promise<CallVerdict | { failed: string; code: BlockCode }>((resolve) => {
      const p: Pending = { n, ctx, resolve, remaining: callTimeoutMs, armedAt: 0 };
      pending = p;
      arm(p);
      const onAbort = () => {
        if (pending === p) kill("the run was cancelled");
      };
      ctx.signal.addEventListener("abort", onAbort, { once: true });
      socket!.write(`${JSON.stringify({ t: "call", n, call: { id: call.id, tool: call.tool, args: call.args }, hasUI: ctx.ui.hasUI, cwd: ctx.env.cwd })}\n`);
    });
    if ("failed" in outcome) return { kind: "deny", code: outcome.code, reason: `${what} failed, blocking execution: ${outcome.failed}` };
    recordViolation(outcome, call, violations);
    return verdictToDecision(outcome, call.args as Record<string, unknown>);
  };

  return {
    name,
    integrityViolations: violations,
    loaded,
    load,
    close: () => kill("closed"),
    decide(call: ProposedCall, ctx: GateContext): Promise<Decision> {
      const next = queue.then(() => decideOnce(call, ctx));
      queue = next.catch(() => undefined);
      return next;
    },
  };
}

/** A fresh host directory for the copies and the socket, readable by the sandbox's user. */
export function makeSandboxedHostDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "gatebench-ext-"));
  chmodSync(dir, 0o755);
  return dir;
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

function toRequest(v: unknown): ConfirmRequest | undefined {
  if (!v || typeof v !== "object") return undefined;
  const r = v as Record<string, unknown>;
  if (typeof r.title !== "string" || typeof r.description !== "string") return undefined;
  return { title: r.title, description: r.description, resources: strings(r.resources), risk: "high" };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

/** A verdict from the process, checked field by field; undefined when malformed. */
function toVerdict(v: unknown): CallVerdict | undefined {
  if (!isRecord(v)) return undefined;
  const out: CallVerdict = {};
  if (v.rewrite !== undefined) {
    if (!isRecord(v.rewrite) || !isRecord(v.rewrite.after) || typeof v.rewrite.by !== "string") return undefined;
    out.rewrite = { after: v.rewrite.after, by: v.rewrite.by };
  }
  if (v.uiFailure !== undefined) out.uiFailure = String(v.uiFailure);
  if (v.thrown !== undefined) out.thrown = String(v.thrown);
  if (v.block !== undefined) {
    if (!isRecord(v.block)) return undefined;
    out.block = {
      reason: String(v.block.reason ?? "Tool execution was blocked"),
      userDenied: v.block.userDenied === true,
      ...(v.block.noUi === true ? { noUi: true } : {}),
    };
  }
  return out;
}
