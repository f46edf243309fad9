/**
 * The gate contract (DESIGN.md "Gates"): a pure decision over a validated tool call and a
 * read-only view of the world. Gates never change arguments and never cause side effects.
 */

export type ToolName = "read" | "write" | "edit" | "bash" | "ls" | "find" | "grep" | "delete";

/** StudyPulse permission levels (seed 004). */
export type PermissionLevel = "Read" | "Write" | "Destructive" | "Execute";

export type Risk = "low" | "medium" | "high" | "critical";

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
  | { kind: "deny"; code: string; reason: string };

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

export interface Gate {
  readonly name: string;
  decide(call: ProposedCall, ctx: GateContext): Decision | Promise<Decision>;
}

/** Runs after all gates allowed/confirmed: a confirmation needs an answer from an approver. */
export const allow = (reason?: string): Decision => ({ kind: "allow", ...(reason ? { reason } : {}) });
export const deny = (code: string, reason: string): Decision => ({ kind: "deny", code, reason });
