/**
 * Pi 0.73.1's `ExtensionRunner.emitToolCall` (dist/core/extensions/runner.js), line for line:
 * extensions in load order, each extension's handlers in registration order, every handler
 * awaited with the same event object (so a later handler sees an earlier one's mutation of
 * `event.input`); the first result with `block` truthy is returned at once; otherwise the last
 * truthy result. A throwing handler is not caught here: Pi's `beforeToolCall` re-throws and the
 * agent loop turns it into an error tool result, i.e. the call is blocked.
 *
 * The event is built as `AgentSession._installAgentToolHooks` builds it:
 * `{ type: "tool_call", toolName: toolCall.name, toolCallId: toolCall.id, input: args }`.
 */
import type { RegisteredExtension } from "./extension-api.ts";

export interface ToolCallEvent {
  type: "tool_call";
  toolName: string;
  toolCallId: string;
  input: Record<string, unknown>;
}

export interface ToolCallEventResult {
  block?: boolean;
  reason?: string;
}

export interface EmitOutcome {
  result: ToolCallEventResult | undefined;
  /** Index of the extension whose handler produced `result` (for reports). */
  extensionIndex?: number;
}

export async function emitToolCall(extensions: readonly RegisteredExtension[], event: ToolCallEvent, ctx: unknown): Promise<EmitOutcome> {
  let outcome: EmitOutcome = { result: undefined };
  for (const [index, ext] of extensions.entries()) {
    const handlers = ext.handlers.get("tool_call");
    if (!handlers || handlers.length === 0) continue;
    for (const handler of handlers) {
      const handlerResult = (await handler(event, ctx)) as ToolCallEventResult | undefined;
      if (handlerResult) {
        outcome = { result: handlerResult, extensionIndex: index };
        if (handlerResult.block) return outcome;
      }
    }
  }
  return outcome;
}

export function hasToolCallHandlers(extensions: readonly RegisteredExtension[]): boolean {
  return extensions.some((e) => (e.handlers.get("tool_call")?.length ?? 0) > 0);
}

/**
 * `ExtensionContext` (types.d.ts) as a tool_call handler sees it. Session-bound members that
 * gatebench has no equivalent for answer like an idle, model-less session.
 */
/** The members of an idle, model-less session: the same functions for every call. */
const IDLE_SESSION = {
  isIdle: (): boolean => false,
  abort: (): void => {},
  hasPendingMessages: (): boolean => false,
  shutdown: (): void => {},
  getContextUsage: (): undefined => undefined,
  compact: (): void => {},
  getSystemPrompt: (): string => "",
};

export function createExtensionContext(opts: {
  /** `ctx.ui`, made when a handler first reads it (most calls never do). */
  ui: () => Record<string, unknown>;
  hasUI: boolean;
  cwd: string;
  signal: AbortSignal;
  /** Called each time a handler reads `ctx.hasUI`. */
  onHasUIRead?: () => void;
}): Record<string, unknown> {
  let ui: Record<string, unknown> | undefined;
  return {
    get ui() {
      ui ??= opts.ui();
      return ui;
    },
    get hasUI() {
      opts.onHasUIRead?.();
      return opts.hasUI;
    },
    cwd: opts.cwd,
    sessionManager: undefined,
    modelRegistry: undefined,
    model: undefined,
    isIdle: IDLE_SESSION.isIdle,
    signal: opts.signal,
    abort: IDLE_SESSION.abort,
    hasPendingMessages: IDLE_SESSION.hasPendingMessages,
    shutdown: IDLE_SESSION.shutdown,
    getContextUsage: IDLE_SESSION.getContextUsage,
    compact: IDLE_SESSION.compact,
    getSystemPrompt: IDLE_SESSION.getSystemPrompt,
  };
}
