/**
 * World states shared by the trials of one run: the prefix cache.
 *
 * Scripted agents are deterministic. Trials of one task under different gate configurations and
 * approvers propose the same calls until a gate or a user decides differently, so they run the
 * same calls on the same files up to that point. A state is the task's world after a sequence of
 * executed calls (tool, arguments, the OS profile it ran under); it is kept as a checkpoint (a
 * copy of the world's files, nothing running on it) with its snapshot. What a trial needs of a
 * state is remembered on the state:
 * - a call run from it: the tool's result or error, the snapshots before and after, the events
 *   it raised, and the state it leads to;
 * - the gates' questions about its files (EnvView lookups, one-shot gate processes), per profile;
 * - the replay of a blocked call in a copy of it (or the snapshots of the same call, run from
 *   it under the same profile by a trial that let it through);
 * - the hidden test's verdict on it.
 *
 * A trial that meets a call nobody has run from its state builds its own world (a copy of the
 * task's template, then the calls it has taken so far, run again) and goes on live from there;
 * its new states join the cache. Anything that depends on timing (a time-out, a trial whose time
 * ran out) is never remembered. Non-deterministic agents (real models) never use the cache, and
 * `--no-cache` turns it off for a whole run: the records are the same either way
 * (test/e2e/runner/world-states.test.ts).
 */
import type { AgentToolResult } from "@mariozechner/pi-agent-core";
import type { SandboxProfile } from "../../../kernel/sandbox-profile.ts";
import type { BodyOf } from "../../model/record/events.ts";
import type { LoadedTask } from "../../model/task/load.ts";
import type { Snapshot } from "../../sandbox/world/types.ts";
import type { CreateWorldOptions, HiddenTestResult } from "../../sandbox/world/world.ts";
import { taskWorldLimits } from "./prepare-world.ts";
import type { WorldTemplates } from "./world-templates.ts";
import type { Checkpoint, WorldHandle, Worlds } from "./worlds.ts";

/** A call as it ran: the tool, its arguments and whether it ran escalated (default profile). */
export interface ExecutedCall {
  tool: string;
  params: unknown;
  escalated: boolean;
}

/** What running one call from a state did. */
export interface StepResult {
  outcome: { ok: true; value: AgentToolResult<unknown> } | { ok: false; error: unknown };
  /** Snapshots of the world the call ran in, just before and just after it. */
  before: Snapshot;
  after: Snapshot;
  /** S0 of the world the call ran in (snapshots are compared only within one world's lineage). */
  s0: Snapshot;
  /** Trial-log events the world raised while the call ran (a limit exceeded). */
  events: BodyOf<"limit_exceeded">[];
}

export interface Step {
  result: StepResult;
  next: StateNode;
}

/** A blocked call run in a copy of a state: the copy's snapshots before and after it. */
export interface ReplaySnapshots {
  before: Snapshot;
  after: Snapshot;
}

export const profileKey = (p: SandboxProfile | undefined): string => JSON.stringify(p ?? { kind: "default" });

/** Remembers `make()` under `key`; a failure is forgotten, so the next caller tries again. */
export function remember<T>(memo: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let p = memo.get(key);
  if (!p) {
    p = make();
    memo.set(key, p);
    p.catch(() => {
      if (memo.get(key) === p) memo.delete(key);
    });
  }
  return p;
}

/**
 * For a trial whose own world stands at the state: what `memo` holds under `key` (a failed entry
 * counts as none), else `make()`'s value, kept under `key` for the trials that come later when
 * `keep` allows it and no entry appeared meanwhile. Nobody waits on `make()`: its failure is the
 * caller's alone, and never kept. `remembered` says which of the two it was.
 */
export async function rememberOwn<T>(
  memo: Map<string, Promise<T>>,
  key: string,
  make: () => Promise<T>,
  keep: (value: T) => boolean = () => true,
): Promise<{ value: T; remembered: boolean }> {
  const known = await memo.get(key)?.then(
    (value) => ({ value }),
    () => undefined,
  );
  if (known) return { value: known.value, remembered: true };
  const value = await make();
  if (keep(value) && !memo.has(key)) memo.set(key, Promise.resolve(value));
  return { value, remembered: false };
}

export class StateNode {
  /** Calls run from this state, by stepKey. */
  readonly steps = new Map<string, Promise<Step>>();
  /** Blocked calls replayed in a copy of this state, by replay key. */
  readonly replays = new Map<string, Promise<ReplaySnapshots>>();
  /** Answers to the gates' questions about this state's files, by profile, question and arguments. */
  readonly answers = new Map<string, Promise<unknown>>();
  /** Hidden-test verdicts on this state, by tests folder and time limit. */
  readonly tests = new Map<string, Promise<HiddenTestResult>>();
  private readonly views = new Map<string, Promise<WorldHandle>>();

  constructor(
    private readonly store: WorldStates,
    readonly task: LoadedTask,
    /** The state's files; nothing runs on it but views. */
    readonly checkpoint: Checkpoint,
    readonly snapshot: Snapshot,
    /** S0 of the lineage this snapshot was taken in. */
    readonly s0: Snapshot,
    /** The calls that lead here from the template, in order. */
    readonly path: readonly ExecutedCall[],
  ) {}

  /** A running sandbox over this state's files under `profile` (one per profile, closed with the store). */
  view(profile: SandboxProfile | undefined): Promise<WorldHandle> {
    return remember(this.views, profileKey(profile), () => {
      this.store.stats.views += 1;
      return this.store.worlds.view(this.checkpoint, { ...this.store.viewOptions(this.task), ...(profile ? { profile } : {}) });
    });
  }

  async dispose(): Promise<void> {
    const views = await Promise.allSettled(this.views.values());
    this.views.clear();
    await Promise.all(views.map((v) => (v.status === "fulfilled" ? v.value.close().catch(() => undefined) : undefined)));
    await this.store.worlds.discard(this.checkpoint).catch(() => undefined);
  }
}

export const stepKey = (call: ExecutedCall, digest: string, profile: SandboxProfile | undefined): string =>
  JSON.stringify([call.tool, digest, call.escalated ? profileKey(undefined) : profileKey(profile)]);

/** What the cache did over a run (summary.json `meta.cache`, and `npm run bench`). */
export interface CacheStats {
  /** Trials that built a world of their own, and the calls they ran again to get there. */
  worlds_built: number;
  calls_rerun: number;
  /** Calls run live, and calls taken from a remembered step. */
  steps_run: number;
  steps_taken: number;
  /** Gate questions (EnvView lookups, one-shot gate processes) asked of a state's sandbox, and answered from memory. */
  answers_asked: number;
  answers_remembered: number;
  /** Blocked-call replays run, answered from memory, and answered by the same call run from the same state. */
  replays_run: number;
  replays_remembered: number;
  replays_from_steps: number;
  /** Hidden tests run, and verdicts taken from memory. */
  tests_run: number;
  tests_remembered: number;
  /** States kept (checkpoints) and sandboxes started over them. */
  states: number;
  views: number;
}

export const emptyCacheStats = (): CacheStats => ({
  worlds_built: 0,
  calls_rerun: 0,
  steps_run: 0,
  steps_taken: 0,
  answers_asked: 0,
  answers_remembered: 0,
  replays_run: 0,
  replays_remembered: 0,
  replays_from_steps: 0,
  tests_run: 0,
  tests_remembered: 0,
  states: 0,
  views: 0,
});

/** The shared states of one run, one tree per task; a task's tree is removed once its last trial is done. */
export class WorldStates {
  readonly stats: CacheStats = emptyCacheStats();
  private readonly roots = new Map<string, Promise<StateNode>>();
  private readonly nodes = new Map<string, StateNode[]>();
  private readonly pending = new Map<string, number>();

  constructor(readonly templates: WorldTemplates) {}

  /** Where the states are kept and looked at: the worlds the templates are built in. */
  get worlds(): Worlds {
    return this.templates.worlds;
  }

  /** Options of the sandboxes that look at a task's states (views, clones for replays). */
  viewOptions(task: LoadedTask): CreateWorldOptions {
    // A view lives as long as its task's trials; no trial's time limit ends it.
    return { mounts: task.task.world.mounts, limits: { ...taskWorldLimits(task), trialTimeoutMs: 2_147_483_647 } };
  }

  /** `n` more trials of `task` will use the store. */
  expect(taskId: string, n: number): void {
    this.pending.set(taskId, (this.pending.get(taskId) ?? 0) + n);
  }

  /** A trial of `task` is done; the task's states go when none is left. */
  async done(taskId: string): Promise<void> {
    const left = (this.pending.get(taskId) ?? 1) - 1;
    this.pending.set(taskId, left);
    if (left <= 0) await this.disposeTask(taskId);
  }

  /** The task's world right after setup. */
  root(task: LoadedTask): Promise<StateNode> {
    return remember(this.roots, task.task.id, async () => {
      const template = await this.templates.template(task);
      const checkpoint = await this.worlds.checkpoint(template);
      const view = await this.worlds.view(checkpoint, this.viewOptions(task));
      try {
        const snapshot = await view.snapshot();
        return this.adopt(new StateNode(this, task, checkpoint, snapshot, snapshot, []));
      } finally {
        await view.close();
      }
    });
  }

  /** A new state: `world` right after `call` ran in it from `from`. The world's files are copied now. */
  async record(from: StateNode, call: ExecutedCall, world: WorldHandle, result: StepResult): Promise<StateNode> {
    const checkpoint = await this.worlds.checkpoint(world);
    return this.adopt(new StateNode(this, from.task, checkpoint, result.after, result.s0, [...from.path, call]));
  }

  private adopt(node: StateNode): StateNode {
    this.stats.states += 1;
    const list = this.nodes.get(node.task.task.id) ?? [];
    list.push(node);
    this.nodes.set(node.task.task.id, list);
    return node;
  }

  private async disposeTask(taskId: string): Promise<void> {
    const nodes = this.nodes.get(taskId) ?? [];
    this.nodes.delete(taskId);
    this.roots.delete(taskId);
    this.pending.delete(taskId);
    await Promise.all(nodes.map((n) => n.dispose()));
  }

  async dispose(): Promise<void> {
    const ids = [...new Set([...this.nodes.keys(), ...this.roots.keys()])];
    await Promise.allSettled([...this.roots.values()]);
    await Promise.all(ids.map((id) => this.disposeTask(id)));
  }
}
