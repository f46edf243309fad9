/**
 * A scripted agent (the reference or a persona) played to an agent product through its model
 * endpoint: each request the product sends is answered with the next step, in the product's
 * tool vocabulary, and the tool result it sent back for the previous call decides the branch
 * (`on_block`, `on_error`) exactly as the scripted driver reads a tool result. Pure.
 */
import type { Step } from "../../../../model/task/schema.ts";
import { StepProgram, type CallOutcome } from "../step-program.ts";
import type { ReplyBlock, ToolResult } from "./protocol.ts";
import { CLAUDE_CODE_TOOLS, type ProductCall } from "./claude-code-tools.ts";

/** How a product's tools carry gatebench's steps, and how its tool results read (one per product). */
export interface ToolVocabulary {
  /** The product's calls for one step's tool call, in order (none: a text-only step). */
  callsOf(step: Step): ProductCall[];
  /** How a call ended, from the result the product sent back. */
  outcomeOf(isError: boolean, text: string, tool: string): CallOutcome;
  /** What makes a result unreadable as ran, failed or refused (undefined: it reads; absent: every result reads). */
  unreadable?(tool: string, isError: boolean, text: string): string | undefined;
  /** The read the product wants before it changes a file (its result for `call` says so), if any. */
  readFirst(
    call: ProductCall,
    isError: boolean,
    text: string,
  ):
    | {
        call: ProductCall;
        replay: { tool: string; args: Record<string, unknown> };
        /** The change to ask for again, made from what the read returned (undefined or absent: the same call). */
        rebuild?: (readResult: string) => ProductCall | undefined;
      }
    | undefined;
}

/** One call the product was asked to make, and how it ended. */
export interface EndedCall {
  id: string;
  call: ProductCall;
  outcome: CallOutcome;
  /** The product's tool result (its first 2,000 characters). */
  result: string;
  /** What it does in gatebench's own tools (a blocked call is replayed with it in a copy of the world). */
  replay: { tool: string; args: Record<string, unknown> };
  /** A Read the player added because the product wants a file read before it is changed. */
  prep?: true;
  /** Why the result could not be read as ran, failed or refused (ToolVocabulary.unreadable), read from the whole result. */
  unreadable?: string;
}

interface Pending {
  id: string;
  call: ProductCall;
  replay: EndedCall["replay"];
  /** The step's calls still to make after this one (an edit of several replacements). */
  rest: { call: ProductCall; replay: EndedCall["replay"] }[];
  /** The call to make again once a prep Read is done. */
  retry?: { call: ProductCall; replay: EndedCall["replay"]; rebuild?: ((readResult: string) => ProductCall | undefined) | undefined };
  /** Whether this step already read its file for the product. */
  readDone: boolean;
  prep?: true;
}

export interface Answer {
  content: ReplyBlock[];
  /** The call the previous request's result ended (measured by the harness before the answer is sent). */
  ended?: EndedCall;
}

/** gatebench's own call for each product call of a step (the edit's replacements one by one). */
function replaysOf(step: Step, calls: readonly ProductCall[]): EndedCall["replay"][] {
  const args = (step.args ?? {}) as Record<string, unknown>;
  if (step.tool === "edit") {
    const edits = Array.isArray(args.edits) ? args.edits : [];
    return calls.map((_c, i) => ({ tool: "edit", args: { path: args.path, edits: [edits[i]] } }));
  }
  return calls.map(() => ({ tool: step.tool!, args: structuredClone(args) }));
}

export class ScriptedPlayer {
  private readonly program: StepProgram;
  private pending: Pending | undefined;
  private calls = 0;
  /** The outcome of the step so far (an edit's replacements: the first that did not run decides). */
  private stepOutcome: CallOutcome = "ok";
  private done = false;

  constructor(
    steps: readonly Step[],
    private readonly idPrefix = "toolu_gb",
    private readonly tools: ToolVocabulary = CLAUDE_CODE_TOOLS,
  ) {
    this.program = new StepProgram(steps);
  }

  get finished(): boolean {
    return this.done;
  }

  private newId(): string {
    return `${this.idPrefix}${String(++this.calls).padStart(3, "0")}`;
  }

  private ask(p: Omit<Pending, "id">, say?: string): ReplyBlock[] {
    const id = this.newId();
    this.pending = { ...p, id };
    return [...(say ? [{ type: "text" as const, text: say }] : []), { type: "tool_use", id, name: p.call.name, input: structuredClone(p.call.input) }];
  }

  /** The answer to a request whose last message carries `results`. */
  answer(results: readonly ToolResult[]): Answer {
    let ended: EndedCall | undefined;
    const p = this.pending;
    if (p) {
      this.pending = undefined;
      const r = results.find((x) => x.toolUseId === p.id);
      // A request without the result of the call asked for: the call did not come back (error).
      const isError = r ? r.isError : true;
      const text = r ? r.text : "(no tool result for this call)";
      const outcome = r ? this.tools.outcomeOf(isError, text, p.call.name) : "error";
      const unreadable = r ? this.tools.unreadable?.(p.call.name, isError, text) : undefined;
      ended = {
        id: p.id,
        call: p.call,
        outcome,
        result: text.slice(0, 2000),
        replay: p.replay,
        ...(p.prep ? { prep: true as const } : {}),
        ...(unreadable !== undefined ? { unreadable } : {}),
      };
      if (p.prep && p.retry) {
        // The prep Read is done whatever it said: the change is asked for again.
        const call = p.retry.rebuild?.(text) ?? p.retry.call;
        return { content: this.ask({ call, replay: p.retry.replay, rest: p.rest, readDone: true }), ended };
      }
      const read = p.readDone ? undefined : this.tools.readFirst(p.call, isError, text);
      if (read) {
        return {
          content: this.ask({
            call: read.call,
            replay: read.replay,
            rest: p.rest,
            retry: { call: p.call, replay: p.replay, rebuild: read.rebuild },
            readDone: true,
            prep: true,
          }),
          ended,
        };
      }
      if (outcome !== "ok" && this.stepOutcome === "ok") this.stepOutcome = outcome;
      const [next, ...rest] = p.rest;
      if (next && outcome === "ok") return { content: this.ask({ ...next, rest, readDone: p.readDone }), ended };
    }
    if (this.done) return { content: [{ type: "text", text: "Done." }], ...(ended ? { ended } : {}) };
    const outcome = p ? this.stepOutcome : undefined;
    this.stepOutcome = "ok";
    const step = this.program.next(outcome);
    if (!step) {
      this.done = true;
      return { content: [{ type: "text", text: "Done." }], ...(ended ? { ended } : {}) };
    }
    const calls = this.tools.callsOf(step);
    if (calls.length === 0) {
      // A text-only step is the agent's final answer.
      this.done = true;
      return { content: [{ type: "text", text: step.say ?? "Done." }], ...(ended ? { ended } : {}) };
    }
    const replays = replaysOf(step, calls);
    const [first, ...rest] = calls.map((call, i) => ({ call, replay: replays[i]! }));
    return { content: this.ask({ ...first!, rest, readDone: false }, step.say), ...(ended ? { ended } : {}) };
  }
}
