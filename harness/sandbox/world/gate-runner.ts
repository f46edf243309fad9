/**
 * The host's end of a world's shared gate runner (inside/gate-runner.cjs): one read-only sandbox
 * kept for many one-shot gate processes of a world that nothing changes while it lives, and the
 * world's listing taken once in it. World.startGateRunner starts it; the caller closes it.
 */
import type { FileType, GateProcessOutput } from "../../../gates/types.ts";
import { HelperProcess } from "./helper-client.ts";
import type { SandboxIdentity } from "./identity.ts";

/** One entry of a world's listing (inside/world-index.cjs). */
export interface IndexEntry {
  type: FileType;
  size: number;
  mode: number;
  /** A link's text; null when it could not be read. */
  target?: string | null;
  /** A folder's names, sorted; null when the folder could not be read. */
  names?: string[] | null;
  /** A regular file's text as readFile gives it; null when it could not be read; absent when too large to keep. */
  text?: string | null;
}

/** A world's listing: its roots (each with its realpath, null when missing) and every entry under them. */
export interface WorldListing {
  roots: { path: string; real: string | null }[];
  entries: [string, IndexEntry][];
}

/** Time on top of a process's own limit before the host gives up on the runner. */
const RUNNER_GRACE_MS = 5_000;
/** How long listing a world may take. */
const INDEX_TIMEOUT_MS = 60_000;

export class GateRunner {
  private constructor(
    private readonly process: HelperProcess,
    private readonly maxOutputBytes: number,
  ) {}

  static async start(bwrapArgv: string[], identity: SandboxIdentity | undefined, maxOutputBytes: number): Promise<GateRunner> {
    return new GateRunner(await HelperProcess.start(bwrapArgv, identity), maxOutputBytes);
  }

  get alive(): boolean {
    return this.process.alive;
  }

  /**
   * One process, after any still running (one at a time), as a one-shot gate process would run
   * it; undefined when the runner itself failed (it died, or did not answer): the caller runs the
   * process in a sandbox of its own instead.
   */
  async run(argv: readonly string[], stdin: string, timeoutMs: number): Promise<GateProcessOutput | undefined> {
    const r = await this.process.call("run", { argv, stdin, timeoutMs, maxOutputBytes: this.maxOutputBytes }, timeoutMs + RUNNER_GRACE_MS);
    if (!r.ok) {
      if (r.code === "timeout") this.process.kill();
      return undefined;
    }
    return r.value as GateProcessOutput;
  }

  /** The world under `roots` as the gate processes see it, or undefined past `maxEntries` entries (or when the runner failed). */
  async listing(roots: readonly string[], maxEntries?: number): Promise<WorldListing | undefined> {
    const r = await this.process.call("index", { roots, ...(maxEntries !== undefined ? { maxEntries } : {}) }, INDEX_TIMEOUT_MS);
    if (!r.ok) return undefined;
    const v = r.value as WorldListing | { incomplete: string };
    return "incomplete" in v ? undefined : v;
  }

  close(): void {
    this.process.kill();
  }
}
