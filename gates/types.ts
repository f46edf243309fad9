/**
 * The gate contract: a pure decision over a validated tool call and a read-only view of the
 * world. Gates never change arguments and never cause side effects.
 */
import type { BlockCode } from "../kernel/codes.ts";
import type { PermissionLevel } from "../kernel/tools.ts";

export type Risk = "low" | "medium" | "high" | "critical";

/** Risks from least to most severe: the one order every gate and the stack compare by. */
export const RISK_ORDER: readonly Risk[] = ["low", "medium", "high", "critical"];

/** The more severe of two risks. */
export const higherRisk = (a: Risk, b: Risk): Risk => (RISK_ORDER.indexOf(b) > RISK_ORDER.indexOf(a) ? b : a);

/** A tool call after schema validation, exactly as the tool would execute it. */
export interface ProposedCall {
  readonly id: string;
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly permission?: PermissionLevel;
}

export type Decision =
  | { kind: "allow"; reason?: string }
  | { kind: "confirm"; title: string; description: string; resources: string[]; risk: Risk }
  | {
      kind: "deny";
      code: BlockCode;
      reason: string;
      /**
       * Only with code `integrity_violation`: the arguments as the gate's extension code left them,
       * i.e. what Pi 0.73.1 would have executed (it runs a mutated `event.input` unchecked). Used
       * to judge the block in a copy of the world, and executed instead when integrity is `off`.
       */
      rewrittenArgs?: Record<string, unknown>;
    };

/**
 * What happens to arguments an extension rewrote after the gates and the user saw the call:
 * `enforce` blocks the call (integrity_violation); `off` runs the rewritten arguments, as
 * Pi 0.73.1 does.
 */
export type IntegrityMode = "enforce" | "off";

export type FileType = "file" | "dir" | "symlink" | "other";

export interface LstatInfo {
  type: FileType;
  size: number;
  mode: number;
}

/**
 * Read-only questions about the world, answered inside the trial's sandbox so that a planted
 * symlink is never followed on the host. Paths are sandbox paths (`/workspace/...`).
 */
export interface EnvView {
  readonly cwd: string;
  readonly home: string;
  /** realpath of an existing path, or null when it does not exist (or a link dangles). */
  realpath(path: string): Promise<string | null>;
  lstat(path: string): Promise<LstatInfo | null>;
  readlink(path: string): Promise<string | null>;
  /** Expand a glob (absolute pattern) against the world, like bash would; [] when nothing matches. */
  glob(pattern: string): Promise<string[]>;
  /** Content of a regular file (never through a link), or null. For gates that load project resources. */
  readFile(path: string): Promise<string | null>;
  /** Names in a directory (not following a link), or null when it is not a directory. */
  readdir(path: string): Promise<string[] | null>;
  /**
   * Runs a program for a gate (a Claude Code hook...) inside the trial's sandbox with the world
   * bound READ-ONLY, cwd /workspace, HOME /home/user, the repository's node_modules read-only at
   * /opt/gatebench/node_modules. `readOnlyBinds` adds host files or dirs under /opt/gatebench/hooks/.
   * Absent where there is no sandbox (unit-test fakes).
   */
  runGateProcess?(
    argv: string[],
    stdin: string,
    timeoutMs: number,
    readOnlyBinds?: readonly GateProcessBind[],
    opts?: GateProcessOptions,
  ): Promise<GateProcessOutput>;
}

export interface GateProcessOptions {
  /**
   * The process lives as long as the trial and answers many calls (a loaded extension): it must
   * see the world as it changes. A one-shot process (a hook, a dry run) answers for the world
   * as it is when it starts, so the harness may reuse its answer for the same input and files.
   */
  persistent?: boolean;
}

export interface GateProcessBind {
  hostPath: string;
  /** Must lie under /opt/gatebench/hooks/. */
  sandboxPath: string;
}

export interface GateProcessOutput {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export interface ConfirmRequest {
  title: string;
  description: string;
  resources: string[];
  risk: Risk;
}

/**
 * The user interface a gate may talk to while deciding (Pi's `ctx.ui`): answered by the
 * trial's approver through the one-time-id confirmation flow. `hasUI` is false for `headless`.
 * A rejected promise means the UI failed: the gate must block.
 */
export interface GateUI {
  readonly hasUI: boolean;
  confirm(request: ConfirmRequest): Promise<boolean>;
}

export interface GateContext {
  readonly env: EnvView;
  readonly signal: AbortSignal;
  readonly ui: GateUI;
  /** Task id and run id, for gates that keep per-project state (trust decisions). */
  readonly runId: string;
}

/**
 * What a gate's decisions depend on besides its own code: host files it runs or loads (a hook
 * script, a Pi extension; a JavaScript or TypeScript file stands for every file it imports) and
 * npm packages it runs (by name). A trial's fingerprint hashes them (harness/run/matrix/fingerprint.ts).
 */
export interface GateSources {
  files: readonly string[];
  packages: readonly string[];
  /** Host folders bound into the sandbox with those files (a hook's or extension's package): hashed whole. */
  folders?: readonly string[];
}

/**
 * Where a layer is configured: relative paths in its options (a hook command's files, an
 * extension file) are resolved against `baseDir` — the folder of the configuration file, the
 * cwd for a `--gates claude-hook:` / `pi-extension:` entry, gatebench's own folder by default.
 */
export interface GateFactoryContext {
  readonly baseDir?: string;
}

export interface Gate {
  readonly name: string;
  decide(call: ProposedCall, ctx: GateContext): Decision | Promise<Decision>;
  readonly sources?: GateSources;
  /**
   * What the layer runs, checked once before a run in a sandbox on a scratch world (`env`):
   * that it loads and answers a harmless call in its protocol. Resolves to the problems, [] when
   * none; a layer with problems is bad input, never a gate that blocks every call.
   */
  preflight?(env: EnvView): Promise<string[]>;
  /**
   * Work the layer does once per trial before the agent's first call, outside every call's time
   * limit (starting its process in the trial's sandbox and loading what it runs), so that how
   * long that takes never decides a call. Never rejects: a failure shows in the decisions.
   */
  prepare?(env: EnvView): Promise<void>;
}

/**
 * A gate layer as the registry (gates/registry.ts) lists it, defined next to its factory. The
 * name is what a configuration's `layers[].gate` says; `modules` are the files its code starts
 * from (a trial's fingerprint hashes everything they import, and files it runs rather than
 * imports, such as a worker, are listed too).
 */
export interface GateDefinition {
  readonly name: string;
  /** One line for --help and the docs. */
  readonly summary: string;
  readonly modules: readonly string[];
  /**
   * The published package whose rules this layer applies unchanged (with the file, when the layer
   * is one example of several the package ships), at the version the lockfile pins: its decisions
   * were not written against this suite, so a configuration made only of such layers counts every
   * task as unseen (harness/run/report/unseen.ts).
   */
  readonly published?: { readonly package: string; readonly file?: string };
  /** Validates the options (an InputError naming the file and `with.<field>`) and returns the gate. */
  create(options: Record<string, unknown>, where: string, context?: GateFactoryContext): Gate;
}

/** The absolute path of a module next to `base` (an `import.meta.url`). */
export function moduleBeside(base: string, relative: string): string {
  return decodeURIComponent(new URL(relative, base).pathname);
}

/** Runs after all gates allowed/confirmed: a confirmation needs an answer from an approver. */
export const allow = (reason?: string): Decision => ({ kind: "allow", ...(reason ? { reason } : {}) });
export const deny = (code: BlockCode, reason: string): Decision => ({ kind: "deny", code, reason });
