/**
 * `ctx.ui` for extension handlers, answered by the trial's approver through GateContext.ui.
 *
 * - No UI (headless approver): Pi's `noOpUIContext` exactly: confirm -> false, select ->
 *   undefined, input -> undefined, notify ignored; the approver is never asked.
 * - With a UI: `confirm(title, message)` and `select(title, options)` become one confirmation
 *   each. An approved select answers the first affirmative option ("Yes", "Allow", ...); a denied
 *   one the first negative option ("No", ...) or undefined. A select with no affirmative option
 *   cannot be answered by a yes/no approver and resolves to undefined (Pi's "dialog dismissed").
 * - A question that could not be asked: without a UI, calling confirm/select marks the call
 *   `unasked`; a block that follows is a no-UI block (evaluate.ts), counted like the confirmation
 *   of a gate that asks without a UI.
 * - A rejected approver promise is re-thrown to the handler AND recorded: the gate blocks the
 *   call whatever the handler does with the error (fail closed).
 */
import type { ConfirmRequest, GateUI } from "../types.ts";

const AFFIRMATIVE = /^(yes|y|allow|allow once|approve|approved|ok|okay|continue|proceed|confirm|accept|run|run it|always allow|always)\b/i;
const NEGATIVE = /^(no|n|deny|block|cancel|reject|abort|stop|don'?t|never)\b/i;

export interface UiQuestion {
  kind: "confirm" | "select";
  request: ConfirmRequest;
  options?: string[];
  answer: "approved" | "denied" | "failed";
}

export interface UiRecorder {
  readonly questions: UiQuestion[];
  readonly notifications: { message: string; type?: string }[];
  /** The approver failed (rejected) at least once during this call. */
  failure?: string;
  /** No UI: a handler called confirm/select, i.e. had a question it could not ask. */
  unasked?: boolean;
}

export function firstAffirmative(options: readonly string[]): string | undefined {
  return options.find((o) => AFFIRMATIVE.test(o.trim()));
}

export function firstNegative(options: readonly string[]): string | undefined {
  return options.find((o) => NEGATIVE.test(o.trim()));
}

function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim().length > 0) ?? "Extension question";
  return line.trim().replace(/:$/, "");
}

const noop = (): void => {};

/** The parts of Pi's ExtensionUIContext that draw on a terminal: accepted and ignored. */
const DISPLAY_ONLY = {
  onTerminalInput: () => noop,
  setStatus: noop,
  setWorkingMessage: noop,
  setWorkingVisible: noop,
  setWorkingIndicator: noop,
  setHiddenThinkingLabel: noop,
  setWidget: noop,
  setFooter: noop,
  setHeader: noop,
  setTitle: noop,
  custom: async (): Promise<undefined> => undefined,
  pasteToEditor: noop,
  setEditorText: noop,
  getEditorText: (): string => "",
  editor: async (): Promise<undefined> => undefined,
  addAutocompleteProvider: noop,
  setEditorComponent: noop,
  getEditorComponent: (): undefined => undefined,
  theme: undefined,
  getAllThemes: (): unknown[] => [],
  getTheme: (): undefined => undefined,
  setTheme: () => ({ success: false, error: "UI not available" }),
  getToolsExpanded: (): boolean => false,
  setToolsExpanded: noop,
};

/** The questions part of the UI. */
interface Questions {
  select: (title: string, options: string[]) => Promise<string | undefined>;
  confirm: (title: string, message: string) => Promise<boolean>;
  input: () => Promise<undefined>;
  notify: (message: string, type?: string) => void;
}

/**
 * DISPLAY_ONLY's members and the questions as one object literal: the same own properties as
 * `{ ...DISPLAY_ONLY, ...questions }`, made from a fixed shape (a spread defines them one by one).
 */
function uiObject(q: Questions): Record<string, unknown> {
  return {
    onTerminalInput: DISPLAY_ONLY.onTerminalInput,
    setStatus: DISPLAY_ONLY.setStatus,
    setWorkingMessage: DISPLAY_ONLY.setWorkingMessage,
    setWorkingVisible: DISPLAY_ONLY.setWorkingVisible,
    setWorkingIndicator: DISPLAY_ONLY.setWorkingIndicator,
    setHiddenThinkingLabel: DISPLAY_ONLY.setHiddenThinkingLabel,
    setWidget: DISPLAY_ONLY.setWidget,
    setFooter: DISPLAY_ONLY.setFooter,
    setHeader: DISPLAY_ONLY.setHeader,
    setTitle: DISPLAY_ONLY.setTitle,
    custom: DISPLAY_ONLY.custom,
    pasteToEditor: DISPLAY_ONLY.pasteToEditor,
    setEditorText: DISPLAY_ONLY.setEditorText,
    getEditorText: DISPLAY_ONLY.getEditorText,
    editor: DISPLAY_ONLY.editor,
    addAutocompleteProvider: DISPLAY_ONLY.addAutocompleteProvider,
    setEditorComponent: DISPLAY_ONLY.setEditorComponent,
    getEditorComponent: DISPLAY_ONLY.getEditorComponent,
    theme: DISPLAY_ONLY.theme,
    getAllThemes: DISPLAY_ONLY.getAllThemes,
    getTheme: DISPLAY_ONLY.getTheme,
    setTheme: DISPLAY_ONLY.setTheme,
    getToolsExpanded: DISPLAY_ONLY.getToolsExpanded,
    setToolsExpanded: DISPLAY_ONLY.setToolsExpanded,
    select: q.select,
    confirm: q.confirm,
    input: q.input,
    notify: q.notify,
  };
}

export function createUiContext(ui: GateUI, recorder: UiRecorder): Record<string, unknown> {
  if (!ui.hasUI) {
    return uiObject({
      select: async (): Promise<undefined> => {
        recorder.unasked = true;
        return undefined;
      },
      confirm: async (): Promise<boolean> => {
        recorder.unasked = true;
        return false;
      },
      input: async (): Promise<undefined> => undefined,
      notify: (message: string, type?: string) => void recorder.notifications.push({ message: String(message), ...(type ? { type } : {}) }),
    });
  }

  const ask = async (kind: UiQuestion["kind"], request: ConfirmRequest, options?: string[]): Promise<boolean> => {
    const question: UiQuestion = { kind, request, ...(options ? { options } : {}), answer: "failed" };
    recorder.questions.push(question);
    try {
      const yes = await ui.confirm(request);
      question.answer = yes === true ? "approved" : "denied";
      return yes === true;
    } catch (err) {
      recorder.failure ??= err instanceof Error ? err.message : String(err);
      throw err;
    }
  };

  return uiObject({
    async confirm(title: string, message: string): Promise<boolean> {
      return ask("confirm", { title: String(title), description: String(message ?? ""), resources: [], risk: "high" });
    },
    async select(title: string, options: string[]): Promise<string | undefined> {
      const opts = Array.isArray(options) ? options.map(String) : [];
      const yesOption = firstAffirmative(opts);
      const request: ConfirmRequest = { title: firstLine(String(title)), description: String(title), resources: [], risk: "high" };
      if (yesOption === undefined) return undefined;
      const yes = await ask("select", request, opts);
      return yes ? yesOption : firstNegative(opts);
    },
    input: async (): Promise<undefined> => undefined,
    notify(message: string, type?: string): void {
      recorder.notifications.push({ message: String(message), ...(type ? { type } : {}) });
    },
  });
}
