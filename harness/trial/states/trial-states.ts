/**
 * One trial's way through the world: where it stands (a shared state, or its own live world),
 * how its calls run, what its gates see, where blocked calls are replayed and where the hidden
 * test runs. Without a store (`--no-cache`, a real model) the trial has its own world from the
 * start and everything runs in it, as a trial always did; with one (world-states.ts) the trial
 * takes remembered steps and only builds a world of its own when it meets something new.
 */
import type { AgentToolResult, AgentToolUpdateCallback } from "@mariozechner/pi-agent-core";
import type { EnvView, GateProcessBind, GateProcessOptions, GateProcessOutput } from "../../../gates/types.ts";
import { HOME, WORKSPACE } from "../../../kernel/sandbox-paths.ts";
import type { SandboxProfile } from "../../../kernel/sandbox-profile.ts";
import { digestArgs } from "../agent/gatekeeper.ts";
import type { LoadedTask } from "../../model/task/load.ts";
import { createTools } from "../../model/tools/index.ts";
import type { ExecResult, Snapshot } from "../../sandbox/world/types.ts";
import type { AgentProcessOptions, CreateWorldOptions, HiddenTestResult } from "../../sandbox/world/world.ts";
import { logEvent, type BodyOf } from "../../model/record/events.ts";
import type { TrialLog } from "../../model/record/trial-log.ts";
import { prepareWorld, type TrialWorlds } from "./prepare-world.ts";
import type { WorldTemplates } from "./world-templates.ts";
import type { WorldHandle, Worlds } from "./worlds.ts";
import {
  profileKey,
  remember,
  rememberOwn,
  stepKey,
  type ExecutedCall,
  type ReplaySnapshots,
  type StateNode,
  type Step,
  type StepResult,
  type WorldStates,
} from "./world-states.ts";

interface Live {
  worlds: TrialWorlds;
  /** S0 of this world (taken right after it was built). */
  s0: Snapshot;
  /** The world as of its last executed call. */
  current: Snapshot;
}

export interface TrialStatesOptions {
  /** Where the trial's worlds are made: the templates' and the store's worlds, when they are given. */
  worlds: Worlds;
  task: LoadedTask;
  /** Options of the trial's own world (its OS profile, limits, the limit log). */
  options: CreateWorldOptions;
  templates?: WorldTemplates | undefined;
  /** The run's shared states; absent: the trial keeps to its own world. */
  store?: WorldStates | undefined;
  log: TrialLog;
}

type EnvQuestion = "realpath" | "lstat" | "readlink" | "glob" | "readFile" | "readdir";

export class TrialStates {
  /** Where the trial stands in the shared states (absent without a store). */
  private node: StateNode | undefined;
  private live: Live | undefined;
  private building: Promise<Live> | undefined;
  /** The calls the trial has run so far, in order (to rebuild its world when it has to). */
  private readonly executed: ExecutedCall[] = [];
  /** What each executed call did, by tool-call id. */
  private readonly steps = new Map<string, StepResult>();
  /** Events the world raises while a call runs live (to remember them with the step). */
  private capture: BodyOf<"limit_exceeded">[] | undefined;
  private expired = false;
  readonly env: EnvView;

  constructor(private readonly opts: TrialStatesOptions) {
    if ((opts.templates && opts.templates.worlds !== opts.worlds) || (opts.store && opts.store.worlds !== opts.worlds))
      throw new Error("the trial's templates and shared states must be made by the trial's own worlds");
    this.env = this.makeEnv();
  }

  private get profile(): SandboxProfile | undefined {
    return this.opts.options.profile as SandboxProfile | undefined;
  }

  /** Phase prepare_world: the trial's starting point (its own world without a store). */
  async start(): Promise<void> {
    if (this.opts.store) this.node = await this.opts.store.root(this.opts.task);
    else await this.ensureLive();
  }

  /** Phase snapshot_s0: the world after setup. */
  s0(): Snapshot {
    if (this.live) return this.live.s0;
    if (!this.node) throw new Error("the trial has not started");
    return this.node.snapshot;
  }

  /** The trial's own world, built on first need: a copy of the template, then the calls taken so far. */
  private ensureLive(): Promise<Live> {
    if (this.live) return Promise.resolve(this.live);
    this.building ??= (async () => {
      const options: CreateWorldOptions = {
        ...this.opts.options,
        onLimitExceeded: (e) => {
          this.capture?.push({ type: "limit_exceeded", ...e });
          this.opts.options.onLimitExceeded?.(e);
        },
      };
      const worlds = await prepareWorld(this.opts.worlds, this.opts.task, options, this.opts.templates);
      try {
        const s0 = await worlds.world.snapshot();
        for (const call of this.executed) {
          const world = call.escalated ? await worlds.escalated() : worlds.world;
          const tool = createTools(world).find((t) => t.name === call.tool);
          await tool?.execute("rebuild", structuredClone(call.params) as never).catch(() => undefined);
        }
        const current = this.executed.length > 0 ? await worlds.world.snapshot(s0) : s0;
        // How many worlds a run builds, and how many calls it runs again to do so, is the cost of the cache's misses.
        this.opts.log("world_built", { calls_rerun: this.executed.length });
        if (this.opts.store) {
          this.opts.store.stats.worlds_built += 1;
          this.opts.store.stats.calls_rerun += this.executed.length;
        }
        this.live = { worlds, s0, current };
        return this.live;
      } catch (e) {
        await worlds.close();
        throw e;
      }
    })();
    const building = this.building;
    building.catch(() => {
      if (this.building === building) this.building = undefined;
    });
    return building;
  }

  /**
   * Runs an admitted call: remembered from an earlier trial when the trial has no world of its
   * own and the step is known, live otherwise. Resolves to the tool's result; throws its error.
   */
  async execute(
    tool: string,
    id: string,
    params: unknown,
    escalated: boolean,
    signal: AbortSignal | undefined,
    onUpdate: AgentToolUpdateCallback<unknown> | undefined,
  ): Promise<AgentToolResult<unknown>> {
    const call: ExecutedCall = { tool, params: structuredClone(params), escalated };
    const store = this.opts.store;
    const from = this.node;
    if (!store || !from) return this.finish(id, call, await this.executeLive(call, id, signal, onUpdate), undefined);
    const key = stepKey(call, digestArgs(params), this.profile);
    const known = from.steps.get(key);
    if (known && !this.live) {
      const step = await known.catch(() => undefined);
      if (step) {
        store.stats.steps_taken += 1;
        for (const event of step.result.events) logEvent(this.opts.log, event);
        return this.finish(id, call, step.result, step.next);
      }
    }
    // Nobody has run this call from here yet (or the trial has its own world): run it live. The
    // step is claimed first, so a trial that meets it meanwhile waits for it instead of building a world.
    let claim: { resolve: (s: Step) => void; reject: (e: unknown) => void } | undefined;
    if (!from.steps.has(key)) {
      const pending = new Promise<Step>((resolve, reject) => {
        claim = { resolve, reject };
      });
      remember(from.steps, key, () => pending).catch(() => undefined);
    }
    let result: StepResult;
    store.stats.steps_run += 1;
    try {
      result = await this.executeLive(call, id, signal, onUpdate);
    } catch (e) {
      claim?.reject(e);
      throw e;
    }
    if (!claim) {
      const step = await from.steps.get(key)?.catch(() => undefined);
      return this.finish(id, call, result, step?.next);
    }
    // What ran while the trial's time ran out depends on timing: it is not remembered.
    if (this.expired || signal?.aborted || this.live?.worlds.world.trialTimedOut) {
      claim.reject(new Error("not remembered: the trial's time ran out"));
      return this.finish(id, call, result, undefined);
    }
    try {
      const next = await store.record(from, call, this.live!.worlds.world, result);
      claim.resolve({ result, next });
      return this.finish(id, call, result, next);
    } catch (e) {
      claim.reject(e);
      return this.finish(id, call, result, undefined);
    }
  }

  /** The call ran (or was taken from the cache): the trial moves on to `next`. */
  private finish(id: string, call: ExecutedCall, result: StepResult, next: StateNode | undefined): AgentToolResult<unknown> {
    this.node = next;
    this.executed.push(call);
    this.steps.set(id, result);
    return unwrap(result);
  }

  private async executeLive(
    call: ExecutedCall,
    id: string,
    signal: AbortSignal | undefined,
    onUpdate: AgentToolUpdateCallback<unknown> | undefined,
  ): Promise<StepResult> {
    const live = await this.ensureLive();
    const world = call.escalated ? await live.worlds.escalated() : live.worlds.world;
    const tool = createTools(world).find((t) => t.name === call.tool);
    if (!tool) throw new Error(`unknown tool ${call.tool}`);
    this.capture = [];
    let outcome: StepResult["outcome"];
    try {
      outcome = { ok: true, value: await tool.execute(id, structuredClone(call.params) as never, signal, onUpdate) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    const events = this.capture;
    this.capture = undefined;
    const before = live.current;
    const after = await live.worlds.world.snapshot(before);
    live.current = after;
    const result: StepResult = { outcome, before, after, s0: live.s0, events };
    this.steps.set(id, result);
    return result;
  }

  /** What the executed call `id` did (set once `execute` returned or threw). */
  stepOf(id: string): StepResult | undefined {
    return this.steps.get(id);
  }

  /** A blocked call run in a copy of the world as it is now, under `overrides` (the approval's permissions). */
  replay(tool: string, id: string, args: Readonly<Record<string, unknown>>, overrides: Partial<CreateWorldOptions>): Promise<ReplaySnapshots> {
    const profile = (overrides.profile ?? this.profile) as SandboxProfile | undefined;
    const run = async (base: WorldHandle): Promise<ReplaySnapshots> => {
      const copy = await this.opts.worlds.clone(base, { ...overrides, keep: false, ...(profile ? { profile } : {}) });
      try {
        const before = await copy.snapshot();
        const t = createTools(copy).find((x) => x.name === tool);
        if (t) await t.execute(id, structuredClone(args) as never).catch(() => undefined);
        return { before, after: await copy.snapshot(before) };
      } finally {
        await copy.close();
      }
    };
    const node = this.node;
    if (!node) return this.ensureLive().then((l) => run(l.worlds.world));
    const digest = digestArgs(args);
    const key = JSON.stringify([tool, digest, profileKey(profile)]);
    const stats = this.opts.store!.stats;
    // The same call already ran from this state under the same profile (another trial let it
    // through): its snapshots around the call are what a copy would show. Else the call runs in
    // a copy of `base`: the trial's own world when it stands here, or the state's checkpoint.
    const replay = async (base: () => Promise<WorldHandle>): Promise<ReplaySnapshots> => {
      const ran = await node.steps.get(stepKey({ tool, params: args, escalated: false }, digest, profile))?.catch(() => undefined);
      if (ran) {
        stats.replays_from_steps += 1;
        return { before: ran.result.before, after: ran.result.after };
      }
      stats.replays_run += 1;
      return run(await base());
    };
    if (this.live) {
      return rememberOwn(node.replays, key, () => replay(async () => (await this.ensureLive()).worlds.world)).then((own) => {
        if (own.remembered) stats.replays_remembered += 1;
        return own.value;
      });
    }
    if (node.replays.has(key)) stats.replays_remembered += 1;
    return remember(node.replays, key, () => replay(() => node.view(undefined)));
  }

  /** An agent product as the agent's process in the trial's own world (world.ts runAgentProcess). */
  async runAgentProcess(argv: string[], opts: AgentProcessOptions): Promise<ExecResult> {
    const live = await this.ensureLive();
    return live.worlds.world.runAgentProcess(argv, opts);
  }

  /**
   * The trial's own world now, against the snapshot of its last measured moment: what changed
   * since (an agent product's call, measured while the product waits for its model).
   */
  async measureNow(): Promise<{ before: Snapshot; after: Snapshot }> {
    const live = await this.ensureLive();
    const before = live.current;
    const after = await live.worlds.world.snapshot(before);
    live.current = after;
    return { before, after };
  }

  /** Phase final_snapshot: S0 of the trial's lineage and the world at the end. */
  async end(): Promise<{ s0: Snapshot; end: Snapshot }> {
    if (this.live) return { s0: this.live.s0, end: await this.live.worlds.world.snapshot(this.live.current) };
    return { s0: this.node!.s0, end: this.node!.snapshot };
  }

  /** Phase hidden_test: the verdict on the world at the end (remembered per state when it did not time out). */
  hiddenTest(testsDir: string, timeoutSec: number): Promise<HiddenTestResult> {
    const run = async (world: WorldHandle) => world.runHiddenTest(testsDir, { timeoutMs: timeoutSec * 1000 });
    const node = this.node;
    if (!node) return run(this.live!.worlds.world);
    const live = this.live;
    const memo = node.tests;
    const key = `${testsDir}\0${timeoutSec}`;
    const known = memo.get(key);
    const stats = this.opts.store!.stats;
    if (known) {
      stats.tests_remembered += 1;
      return known.then((r) => structuredClone(r));
    }
    stats.tests_run += 1;
    const p = (async () => run(live ? live.worlds.world : await node.view(undefined)))();
    const kept = p.then((r) => {
      if (r.timedOut) throw new Error("not remembered: the test timed out");
      return r;
    });
    remember(memo, key, () => kept).catch(() => undefined);
    return p;
  }

  /**
   * The measurer's probe of what must survive (trial/invariants.ts): `command` from the staged
   * folder `dir`, run the way the hidden test runs, on the world at the end.
   */
  async probe(dir: string, command: readonly string[], timeoutSec: number): Promise<HiddenTestResult> {
    const opts = { timeoutMs: timeoutSec * 1000, command };
    if (this.live) return this.live.worlds.world.runHiddenTest(dir, opts);
    return (await this.node!.view(undefined)).runHiddenTest(dir, opts);
  }

  /** The trial's time is up: what runs in its world stops now. */
  async expire(): Promise<void> {
    this.expired = true;
    await this.live?.worlds.expire();
  }

  async close(): Promise<void> {
    const building = this.building;
    this.building = undefined;
    const live = this.live ?? (await building?.catch(() => undefined));
    this.live = undefined;
    await live?.worlds.close();
  }

  private countAnswer(node: StateNode, key: string): void {
    const stats = this.opts.store!.stats;
    if (node.answers.has(key)) stats.answers_remembered += 1;
    else stats.answers_asked += 1;
  }

  /** The gates' view of the files as the trial stands: its own world, or the state's answers. */
  private makeEnv(): EnvView {
    const ask =
      <A extends unknown[], R>(name: EnvQuestion) =>
      async (...args: A): Promise<R> => {
        const node = this.node;
        const askLive = async () => {
          const live = await this.ensureLive();
          return (live.worlds.world.env[name] as unknown as (...a: A) => Promise<R>)(...args);
        };
        if (!node) return askLive();
        const key = JSON.stringify([profileKey(this.profile), name, args]);
        this.countAnswer(node, key);
        // A trial whose own world stands at `node` asks it, unless the state knows the answer.
        if (this.live) return structuredClone((await rememberOwn(node.answers, key, askLive)).value) as R;
        const answer = await remember(node.answers, key, async () => {
          const view = await node.view(this.profile);
          return (view.env[name] as unknown as (...a: A) => Promise<R>)(...args);
        });
        return structuredClone(answer) as R;
      };
    const runGateProcess = async (
      argv: string[],
      stdin: string,
      timeoutMs: number,
      binds?: readonly GateProcessBind[],
      options?: GateProcessOptions,
    ): Promise<GateProcessOutput> => {
      const node = this.node;
      const runLive = async () => {
        const live = await this.ensureLive();
        return live.worlds.world.env.runGateProcess!(argv, stdin, timeoutMs, binds, options);
      };
      // A process that lives as long as the trial has to see the trial's own world change.
      if (!node || options?.persistent) return runLive();
      const key = JSON.stringify([profileKey(this.profile), "runGateProcess", argv, stdin, timeoutMs, binds ?? []]);
      this.countAnswer(node, key);
      if (this.live) {
        const own = await rememberOwn(node.answers, key, runLive, (out) => !(out as GateProcessOutput).timedOut);
        return structuredClone(own.value) as GateProcessOutput;
      }
      const answer = await remember(node.answers, key, async () => {
        const view = await node.view(this.profile);
        const out = await view.env.runGateProcess!(argv, stdin, timeoutMs, binds, options);
        if (out.timedOut) node.answers.delete(key); // timing-dependent: asked again next time
        return out;
      });
      return structuredClone(answer) as GateProcessOutput;
    };
    return {
      cwd: WORKSPACE,
      home: HOME,
      realpath: ask("realpath"),
      lstat: ask("lstat"),
      readlink: ask("readlink"),
      glob: ask("glob"),
      readFile: ask("readFile"),
      readdir: ask("readdir"),
      runGateProcess,
    };
  }
}

/** The tool's result again (a copy), or its error thrown again. */
function unwrap(result: StepResult): AgentToolResult<unknown> {
  if (result.outcome.ok) return structuredClone(result.outcome.value);
  throw result.outcome.error;
}
