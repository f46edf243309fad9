/**
 * The `pi` object an extension's factory receives (Pi 0.73.1 `ExtensionAPI`, types.d.ts).
 * `on()` records handlers per event, in registration order, as Pi's `createExtensionAPI` does.
 * Everything else is accepted so real extensions load: registrations are recorded and ignored,
 * actions are no-ops that return an empty value. gatebench only dispatches `tool_call`.
 *
 * `pi.exec` is deliberately NOT wired to a shell: in Pi it runs commands as the user on the host,
 * and gatebench never lets anything run outside a trial's sandbox. It resolves to a failed result.
 */

export type Handler = (event: unknown, ctx: unknown) => unknown;

export interface RegisteredExtension {
  /** Absolute path of the loaded file (Pi's `extension.path`). */
  readonly path: string;
  readonly handlers: Map<string, Handler[]>;
  /** Names registered through registerTool/registerCommand/registerShortcut/registerFlag (for reports). */
  readonly registered: { tools: string[]; commands: string[]; shortcuts: string[]; flags: string[]; providers: string[] };
}

const noop = (): void => {};

export function createExtensionAPI(file: string): { api: Record<string, unknown>; extension: RegisteredExtension } {
  const extension: RegisteredExtension = {
    path: file,
    handlers: new Map(),
    registered: { tools: [], commands: [], shortcuts: [], flags: [], providers: [] },
  };
  const flagValues = new Map<string, unknown>();
  const api: Record<string, unknown> = {
    on(event: string, handler: Handler): void {
      const list = extension.handlers.get(event) ?? [];
      list.push(handler);
      extension.handlers.set(event, list);
    },
    registerTool(tool: { name?: unknown }): void {
      extension.registered.tools.push(String(tool?.name));
    },
    registerCommand(name: string): void {
      extension.registered.commands.push(String(name));
    },
    registerShortcut(shortcut: string): void {
      extension.registered.shortcuts.push(String(shortcut));
    },
    registerFlag(name: string, options?: { default?: unknown }): void {
      extension.registered.flags.push(String(name));
      if (options?.default !== undefined && !flagValues.has(name)) flagValues.set(name, options.default);
    },
    getFlag(name: string): unknown {
      return extension.registered.flags.includes(name) ? flagValues.get(name) : undefined;
    },
    registerMessageRenderer: noop,
    registerProvider(name: string): void {
      extension.registered.providers.push(String(name));
    },
    unregisterProvider: noop,
    sendMessage: noop,
    sendUserMessage: noop,
    appendEntry: noop,
    setSessionName: noop,
    getSessionName: (): undefined => undefined,
    setLabel: noop,
    exec: async (command: string) => ({
      stdout: "",
      stderr: `gatebench: pi.exec(${JSON.stringify(command)}) is not available to gate extensions`,
      code: 1,
      killed: false,
    }),
    getActiveTools: (): string[] => [],
    getAllTools: (): unknown[] => [],
    setActiveTools: noop,
    getCommands: (): unknown[] => [],
    setModel: async (): Promise<boolean> => false,
    getThinkingLevel: (): string => "off",
    setThinkingLevel: noop,
    events: createEventBus(),
  };
  return { api, extension };
}

/** Pi's shared event bus (`pi.events`): emit/on between extensions of one load. */
function createEventBus(): { emit(channel: string, data: unknown): void; on(channel: string, handler: (data: unknown) => void): () => void } {
  const listeners = new Map<string, Set<(data: unknown) => void>>();
  return {
    emit(channel, data) {
      for (const l of listeners.get(channel) ?? []) {
        try {
          l(data);
        } catch {
          // Pi's bus logs and continues; a listener error never reaches the emitter.
        }
      }
    },
    on(channel, handler) {
      const set = listeners.get(channel) ?? new Set();
      set.add(handler);
      listeners.set(channel, set);
      return () => set.delete(handler);
    },
  };
}
