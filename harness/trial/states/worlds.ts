/**
 * What the trial core needs of worlds, and nothing else: start one (a template after the task's
 * setup, a trial's own world), execute calls in it (the tools over its files and commands),
 * replay a blocked call in a copy, snapshot it (diffs are the model's, over two snapshots), run
 * the hidden test over it, and look at a state read-only (a checkpoint and views over it).
 *
 * The trial core (trial.ts, agent-loop.ts, call-book.ts, states/) reaches worlds only through
 * this interface. Its implementation for real trials is bubblewrap's (bwrap-worlds.ts, over
 * harness/sandbox/world/world.ts); the unit tests of the trial core run it on an in-memory one
 * (test/support/fake-worlds.ts). Types only.
 */
import type { LoadedTask } from "../../model/task/load.ts";
import type { CreateWorldOptions, TrialWorld } from "../../sandbox/world/world.ts";

/**
 * One world as the trial core uses it: the gates' read-only view of its files (`env`), the
 * tools' file operations and commands (`fs`, `exec`, harness/model/tools/), snapshots, the
 * hidden test (or another program of a staged folder, `command`) on a copy, an agent product
 * as its process, and the end of its time.
 */
export type WorldHandle = Pick<TrialWorld, "env" | "fs" | "exec" | "snapshot" | "runHiddenTest" | "runAgentProcess" | "trialTimedOut" | "expire" | "close">;

/** A world's files at one moment with nothing running on them (a shared state); only the worlds that made it read it. */
export type Checkpoint = object;

/** The task's world after setup, closed and kept for copies; `remove` deletes its files. */
export interface WorldTemplate {
  readonly world: WorldHandle;
  remove(): Promise<void>;
}

export interface Worlds {
  /** The task's world after its setup (setup.sh), closed and kept: trials start from copies. Rejects when setup fails. */
  template(task: LoadedTask): Promise<WorldTemplate>;
  /** A new world under `options` with the task's setup run in it (a trial without templates). Rejects, leaving nothing running, when setup fails. */
  setUp(task: LoadedTask, options: CreateWorldOptions): Promise<WorldHandle>;
  /** A new world holding a copy of `world`'s files: a trial's world from a template, the copy a blocked call is replayed in. */
  clone(world: WorldHandle, overrides?: Partial<CreateWorldOptions>): Promise<WorldHandle>;
  /** The same files seen under the default profile (an approved call's escalation); closing it leaves them to `world`. */
  escalated(world: WorldHandle): Promise<WorldHandle>;
  /** A copy of `world`'s files as they are now, nothing running on it. */
  checkpoint(world: WorldHandle): Promise<Checkpoint>;
  /** A world over a checkpoint's files for questions, hidden tests and clones; nothing asked through it writes, and closing it leaves the files. */
  view(checkpoint: Checkpoint, options: CreateWorldOptions): Promise<WorldHandle>;
  /** Removes a checkpoint's files. */
  discard(checkpoint: Checkpoint): Promise<void>;
}
