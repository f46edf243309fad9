/**
 * One tool call through a set of loaded extensions, with Pi's runner semantics
 * (emit-tool-call.ts), reduced to a plain, serialisable verdict. It is the same code whether the
 * extensions run in the harness process (configured gates from node_modules) or in a sandboxed
 * extension process (project extensions, sandbox-worker.ts); gate.ts turns the verdict into a
 * Decision. No harness imports: this module also runs inside the sandbox.
 */
import { isDeepStrictEqual } from "node:util";
import type { Decision, GateUI } from "../types.ts";
import type { Handler, RegisteredExtension } from "./extension-api.ts";
import { createExtensionContext, emitToolCall, type ToolCallEvent } from "./emit-tool-call.ts";
import { createUiContext, type UiRecorder } from "./ui-context.ts";
import { cloneArgs } from "./clone-args.ts";

export interface CallToEvaluate {
  id: string;
  tool: string;
  args: Record<string, unknown>;
}

export interface CallVerdict {
  /** Handlers changed their copy of the input in place: the input Pi would have run, and the file that changed it first. */
  rewrite?: { after: Record<string, unknown>; by: string };
  /** The approver failed while a handler asked. */
  uiFailure?: string;
  /** A handler threw. */
  thrown?: string;
  /**
   * A handler returned `{ block: true }`. `noUi`: there was no UI and the block stands for a
   * question that could not be asked (see noUiBlock).
   */
  block?: { reason: string; userDenied: boolean; noUi?: boolean };
}

export async function evaluateToolCall(
  extensions: readonly RegisteredExtension[],
  call: CallToEvaluate,
  opts: { ui: GateUI; cwd: string; signal: AbortSignal },
): Promise<CallVerdict> {
  const original = call.args;
  const input = cloneArgs(original);
  const recorder: UiRecorder = { questions: [], notifications: [] };
  let readHasUI = false;
  // Methods, not named arrow functions: under tsx each named closure made per call also gets its
  // name defined as a property, and this runs on every tool call.
  const extCtx = createExtensionContext({
    ui() {
      return createUiContext(opts.ui, recorder);
    },
    hasUI: opts.ui.hasUI,
    cwd: opts.cwd,
    signal: opts.signal,
    onHasUIRead() {
      readHasUI = true;
    },
  });
  const event: ToolCallEvent = { type: "tool_call", toolName: call.tool, toolCallId: call.id, input };
  const mutatedBy: string[] = [];
  const watched = extensions.map((ext) => watchInputMutations(ext, input, mutatedBy));

  let thrown: unknown;
  let outcome: Awaited<ReturnType<typeof emitToolCall>> | undefined;
  try {
    outcome = await emitToolCall(watched, event, extCtx);
  } catch (err) {
    thrown = err ?? new Error("handler threw a nullish value");
  }
  const verdict: CallVerdict = {};
  // `input` is the object Pi would have executed; a handler that replaces `event.input` with a new
  // object changes nothing in Pi, so only in-place changes of `input` count.
  if (!isDeepStrictEqual(input, original)) {
    verdict.rewrite = { after: plain(input), by: mutatedBy[0] ?? "(unknown: changed after its handler returned)" };
  }
  if (recorder.failure !== undefined) verdict.uiFailure = recorder.failure;
  if (thrown !== undefined) verdict.thrown = thrown instanceof Error ? thrown.message : String(thrown);
  const result = outcome?.result;
  if (result?.block) {
    const userDenied = recorder.questions.some((q) => q.answer === "denied");
    const noUi = !opts.ui.hasUI && !userDenied && (recorder.unasked === true || (readHasUI && (await wouldAsk(extensions, call, opts))));
    verdict.block = { reason: String(result.reason || "Tool execution was blocked"), userDenied, ...(noUi ? { noUi: true } : {}) };
  }
  return verdict;
}

/**
 * The Decision for a verdict, in this order: rewrite, approver failure, throw, block, allow. A block
 * after a question that could not be asked (no UI) is `no_ui`, like a gate that checks for a UI itself.
 */
export function verdictToDecision(verdict: CallVerdict, original: Record<string, unknown>): Decision {
  if (verdict.rewrite) {
    const after = verdict.rewrite.after;
    return {
      kind: "deny",
      code: "integrity_violation",
      reason: `Extension ${baseName(verdict.rewrite.by)} changed the tool arguments after they were checked: ${describeChange(original, after)}`,
      rewrittenArgs: structuredClone(after),
    };
  }
  if (verdict.uiFailure !== undefined)
    return { kind: "deny", code: "approver_failed", reason: `The approval UI failed, blocking execution: ${verdict.uiFailure}` };
  if (verdict.thrown !== undefined) return { kind: "deny", code: "extension_error", reason: `Extension failed, blocking execution: ${verdict.thrown}` };
  if (verdict.block) {
    const code = verdict.block.userDenied ? "user_denied" : verdict.block.noUi ? "no_ui" : "extension_blocked";
    return { kind: "deny", code, reason: verdict.block.reason };
  }
  return { kind: "allow" };
}

/**
 * A headless block after a handler read `ctx.hasUI` is a no-UI block when the handlers, given a UI,
 * would have asked the user (Pi's permission gate: "blocked (no UI for confirmation)"); a handler
 * that reads `hasUI` only to decide whether to notify and blocks anyway (Pi's protected-paths) is
 * not. The probe runs the handlers once more on a fresh copy of the input with a UI that answers
 * every question "no" and reaches no approver; its outcome is discarded.
 */
async function wouldAsk(extensions: readonly RegisteredExtension[], call: CallToEvaluate, opts: { cwd: string; signal: AbortSignal }): Promise<boolean> {
  const recorder: UiRecorder = { questions: [], notifications: [] };
  const probe: GateUI = { hasUI: true, confirm: async () => false };
  const ui = () => createUiContext(probe, recorder);
  const event: ToolCallEvent = { type: "tool_call", toolName: call.tool, toolCallId: call.id, input: cloneArgs(call.args) };
  try {
    await emitToolCall(extensions, event, createExtensionContext({ ui, hasUI: true, cwd: opts.cwd, signal: opts.signal }));
  } catch {
    // A throw after a question still asked it; a throw before one did not.
  }
  return recorder.questions.length > 0;
}

/** A JSON-safe copy (what a rewrite would have sent to the tool). */
function plain(input: Record<string, unknown>): Record<string, unknown> {
  try {
    return structuredClone(input);
  } catch {
    return JSON.parse(JSON.stringify(input)) as Record<string, unknown>;
  }
}

function baseName(file: string): string {
  return file.slice(file.lastIndexOf("/") + 1);
}

/** The same extension with each tool_call handler wrapped to note whether it changed `input`. */
function watchInputMutations(ext: RegisteredExtension, input: Record<string, unknown>, mutatedBy: string[]): RegisteredExtension {
  const handlers = ext.handlers.get("tool_call") ?? [];
  const wrapped: Handler[] = handlers.map((handler) => async (event, ctx) => {
    const before = cloneArgs(input);
    try {
      return await handler(event, ctx);
    } finally {
      if (!isDeepStrictEqual(before, input)) mutatedBy.push(ext.path);
    }
  });
  return { ...ext, handlers: new Map([...ext.handlers, ["tool_call", wrapped]]) };
}

function describeChange(before: Record<string, unknown>, after: Record<string, unknown>): string {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const changes = keys
    .filter((k) => !isDeepStrictEqual(before[k], after[k]))
    .map((k) => `${k}: ${clip(JSON.stringify(before[k]))} -> ${clip(JSON.stringify(after[k]))}`);
  return changes.join("; ");
}

function clip(s: string | undefined, max = 160): string {
  if (s === undefined) return "(absent)";
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
