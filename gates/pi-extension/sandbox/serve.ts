/**
 * Runs in the extension worker thread (inside the gate sandbox; compiled by bundle.ts): loads the extensions with Pi's
 * loader semantics (load-extension.ts) and answers each tool call with evaluate.ts, the same
 * code the in-process gate uses. `ctx.ui` questions go to the harness as `ask` messages and wait
 * for its `answer`.
 *
 * Protocol (one JSON object per message; main.mjs carries them as lines over the socket):
 *   out  { t: "ready", loaded: string[], errors: string[] }
 *   in   { t: "call", n, call: { id, tool, args }, hasUI, cwd }
 *   out  { t: "ask", n, q, request }        in  { t: "answer", q, ok?: boolean, error?: string }
 *   out  { t: "verdict", n, verdict }       out { t: "fatal", message }
 * A verdict is evaluate.ts's CallVerdict; `block.noUi` marks a headless block that stands for a
 * question the extension could not ask (it only changes how the block is counted, never whether).
 */
import { readFileSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import type { ConfirmRequest, GateUI } from "../../types.ts";
import { evaluateToolCall, type CallToEvaluate } from "../evaluate.ts";
import type { RegisteredExtension } from "../extension-api.ts";
import { loadExtension } from "../load-extension.ts";

interface FileSpec {
  /** Where the copy is inside this sandbox. */
  load: string;
  /** The name reports use (the file's path in the world). */
  name: string;
}

const port = parentPort!;
const post = (m: unknown) => port.postMessage(m);
const asks = new Map<number, { resolve: (ok: boolean) => void; reject: (e: Error) => void }>();
let nextQuestion = 0;

/** The transforms made ahead of time (../transformed.ts), by key; none when the file is missing or unreadable. */
function readTransformed(file: unknown): Map<string, string> {
  const known = new Map<string, string>();
  if (typeof file !== "string" || file === "") return known;
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as unknown;
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) for (const [k, v] of Object.entries(parsed)) if (typeof v === "string") known.set(k, v);
  } catch {
    // jiti transforms every file itself
  }
  return known;
}

async function main(): Promise<void> {
  const { files, transformedFile } = workerData as { files: FileSpec[]; transformedFile?: unknown };
  const transformed = readTransformed(transformedFile);
  const extensions: RegisteredExtension[] = [];
  const loaded: string[] = [];
  const errors: string[] = [];
  for (const f of files) {
    const r = await loadExtension(f.load, transformed);
    if (r.ok) {
      extensions.push({ ...r.extension, path: f.name });
      loaded.push(f.name);
    } else {
      errors.push(`${f.name}: ${r.error.split(f.load).join(f.name)}`);
    }
  }
  port.on("message", (m: { t?: string; q?: number; ok?: unknown; error?: unknown; n?: number; call?: CallToEvaluate; hasUI?: unknown; cwd?: unknown }) => {
    if (m?.t === "answer" && typeof m.q === "number") {
      const waiting = asks.get(m.q);
      asks.delete(m.q);
      if (typeof m.error === "string") waiting?.reject(new Error(m.error));
      else waiting?.resolve(m.ok === true);
    } else if (m?.t === "call" && m.call) {
      void serveCall(extensions, m.n ?? 0, m.call, m.hasUI === true, String(m.cwd ?? "/workspace"));
    }
  });
  post({ t: "ready", loaded, errors });
}

async function serveCall(extensions: RegisteredExtension[], n: number, call: CallToEvaluate, hasUI: boolean, cwd: string): Promise<void> {
  const ui: GateUI = {
    hasUI,
    confirm: (request: ConfirmRequest) =>
      new Promise<boolean>((resolve, reject) => {
        const q = ++nextQuestion;
        asks.set(q, { resolve, reject });
        post({ t: "ask", n, q, request });
      }),
  };
  try {
    const verdict = await evaluateToolCall(extensions, call, { ui, cwd, signal: new AbortController().signal });
    post({ t: "verdict", n, verdict });
  } catch (e) {
    post({ t: "verdict", n, verdict: { thrown: `extension process: ${(e as Error)?.message ?? String(e)}` } });
  }
}

main().catch((e: unknown) => post({ t: "fatal", message: `extension worker failed to start: ${(e as Error)?.message ?? String(e)}` }));
