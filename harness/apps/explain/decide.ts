/**
 * Deciding calls without running them, for `explain`: open the world once (a task's, a copied
 * directory, a list of files, or empty), put a gate configuration on it once (project gates
 * loaded from that world), then decide any number of calls. The UI records what would be asked
 * and answers yes, so every later layer still gets its say; a call that asked is "confirm".
 */
import { loadGateConfig, type GateConfig } from "../../../gates/config.ts";
import { decideStack } from "../../../gates/stack.ts";
import { availableParallelism } from "node:os";
import type { ConfirmRequest, EnvView, Gate, GateContext, GateProcessOutput, ProposedCall } from "../../../gates/types.ts";
import { InputError } from "../../../kernel/errors.ts";
import { loadProjectGatesFor } from "../../trial/project-gates.ts";
import { TaskCatalog } from "../../model/task/load.ts";
import { createWorld, type TrialWorld } from "../../sandbox/world/world.ts";
import { populateWorld, readWorldDir, readWorldFile, type WorldSource } from "./world-spec.ts";

export type Verdict = "allow" | "confirm" | "deny";

export interface CallDecision {
  decision: Verdict;
  reason: string;
  code?: string;
  gate?: string;
  layers: { gate: string; decision: string; reason: string }[];
  questions: ConfirmRequest[];
  /** Wall time of the decision (the gate stack only), milliseconds. */
  ms: number;
}

/** Load a gate configuration (any `--gates` form, gates/config-entry.ts), naming `flag` (e.g. --gate) in its errors. */
export function loadGateForFlag(name: string, flag: string): GateConfig {
  return loadGateConfig(name, undefined, { flag });
}

export interface WorldChoice {
  task?: string | undefined;
  /** Folders of tasks where `task` is looked up besides the built-in tasks/ (--tasks-dir). */
  tasksDirs?: readonly string[] | undefined;
  worldDir?: string | undefined;
  worldFile?: string | undefined;
}

export interface OpenWorld {
  world: TrialWorld;
  source: WorldSource;
  close(): Promise<void>;
}

/** Build the world once: a task's (setup.sh run), a copied directory, a file list, or empty. */
export async function openWorld(choice: WorldChoice): Promise<OpenWorld> {
  const given = (["task", "worldDir", "worldFile"] as const).filter((k) => choice[k] !== undefined);
  if (given.length > 1) throw new InputError("command line", "--world", "one of --task, --world-dir or --world, not several");
  const catalog = new TaskCatalog(choice.tasksDirs ?? []);
  const task = choice.task !== undefined ? catalog.load(catalog.select(choice.task).slice(0, 1))[0] : undefined;
  const files = choice.worldDir !== undefined ? readWorldDir(choice.worldDir) : choice.worldFile !== undefined ? readWorldFile(choice.worldFile) : undefined;
  const world = await createWorld({ mounts: task?.task.world.mounts ?? [] });
  try {
    let source: WorldSource = { kind: "empty" };
    if (task) {
      const setup = await world.runScript(task.setupPath, { timeoutMs: 60_000 });
      if (setup.exitCode !== 0) throw new Error(`setup.sh of ${task.task.id} failed: ${setup.stderr.slice(-300)}`);
      source = { kind: "task", task: task.task.id };
    } else if (files && files.length > 0) {
      await populateWorld(world, files);
      source = choice.worldDir !== undefined ? { kind: "dir", dir: choice.worldDir } : { kind: "files", file: choice.worldFile! };
    }
    return { world, source, close: () => world.close() };
  } catch (e) {
    await world.close();
    throw e;
  }
}

/** A gate configuration put on one world: its layers plus the project gates found there. */
export interface GateOnWorld {
  config: GateConfig;
  layers: Gate[];
  /** Questions asked while loading project gates (trust prompts). */
  setupQuestions: ConfirmRequest[];
}

function recordingContext(env: EnvView, questions: ConfirmRequest[]): GateContext {
  return { env, signal: new AbortController().signal, runId: "explain", ui: { hasUI: true, confirm: async (q) => (questions.push(q), true) } };
}

export async function gateOnWorld(config: GateConfig, env: EnvView): Promise<GateOnWorld> {
  const setupQuestions: ConfirmRequest[] = [];
  const projectGates = config.projectTrust ? await loadProjectGatesFor(config.projectTrust, recordingContext(env, setupQuestions)) : [];
  // as in a trial: what a layer starts in the sandbox is loaded before the first call's time limit
  await Promise.all(config.layers.map((layer) => layer.prepare?.(env)));
  return { config, layers: [...config.layers, ...projectGates], setupQuestions };
}

export async function decideCall(g: GateOnWorld, call: ProposedCall, env: EnvView): Promise<CallDecision> {
  const questions: ConfirmRequest[] = [];
  const t0 = performance.now();
  const stack = await decideStack(g.layers, call, recordingContext(env, questions));
  const ms = performance.now() - t0;
  const layers = stack.layers.map((l) => ({
    gate: l.gate,
    decision: l.decision.kind,
    reason:
      l.decision.kind === "deny"
        ? `${l.decision.code}: ${l.decision.reason}`
        : l.decision.kind === "confirm"
          ? l.decision.description
          : (l.decision.reason ?? ""),
  }));
  if (stack.kind === "deny") return { decision: "deny", reason: stack.reason, code: stack.code, gate: stack.gate, layers, questions, ms };
  if (stack.kind === "confirm") questions.push(stack.request);
  if (questions.length > 0) {
    const reason = questions.map((q) => `${q.title}: ${q.description}${q.resources.length ? ` [${q.resources.join(", ")}]` : ""}`).join("\n");
    return { decision: "confirm", reason, layers, questions, ms };
  }
  return { decision: "allow", reason: layers.length ? "every layer allowed the call" : `${g.config.name} has no layers`, layers, questions, ms };
}

/** The world's EnvView seen from another working directory and/or home directory. */
export function envWith(env: EnvView, dirs: { cwd?: string | undefined; home?: string | undefined }): EnvView {
  if (dirs.cwd === undefined && dirs.home === undefined) return env;
  return new Proxy(env, {
    get(target, key) {
      if (key === "cwd" && dirs.cwd !== undefined) return dirs.cwd;
      if (key === "home" && dirs.home !== undefined) return dirs.home;
      const v: unknown = Reflect.get(target, key, target);
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/**
 * The world's EnvView with every lookup remembered. Explaining never changes the world (calls
 * are decided, not run), so a corpus decided on one world asks the sandbox about each path once,
 * whichever gate or entry asks again. A one-shot gate process (a dry run, a hook run) answers for
 * the world as it is when it starts, so its answer is remembered by its input as the trials' world
 * states remember it (harness/trial/states/trial-states.ts), unless it timed out (that depends on
 * the machine: asked again); a process that lives on (`persistent`) is never remembered. At most
 * `processes` gate processes run at a time (default: the number of cores); the others wait for a
 * slot before they start, so a process's own time limit counts from its start.
 */
export function rememberingEnv(env: EnvView, processes: number = availableParallelism()): EnvView {
  const memo = new Map<string, Promise<unknown>>();
  const remember =
    <A extends unknown[], R>(name: string, fn: (...a: A) => Promise<R>, keep: (r: R) => boolean = () => true) =>
    (...a: A): Promise<R> => {
      const key = `${name}\0${JSON.stringify(a)}`;
      let p = memo.get(key) as Promise<R> | undefined;
      if (!p) {
        p = fn.apply(env, a);
        // A failed lookup is not remembered: the next caller asks the sandbox again.
        p.then(
          (r) => {
            if (!keep(r)) memo.delete(key);
          },
          () => memo.delete(key),
        );
        memo.set(key, p);
      }
      return p;
    };
  const run = env.runGateProcess?.bind(env);
  const slots = new Slots(Math.max(1, processes));
  const oneShot = run
    ? remember(
        "runGateProcess",
        (...a: Parameters<NonNullable<EnvView["runGateProcess"]>>) => slots.use(() => run(...a)),
        (out: GateProcessOutput) => !out.timedOut,
      )
    : undefined;
  return {
    get cwd() {
      return env.cwd;
    },
    get home() {
      return env.home;
    },
    realpath: remember("realpath", env.realpath),
    lstat: remember("lstat", env.lstat),
    readlink: remember("readlink", env.readlink),
    glob: remember("glob", env.glob),
    readFile: remember("readFile", env.readFile),
    readdir: remember("readdir", env.readdir),
    ...(run && oneShot
      ? {
          runGateProcess: (argv, stdin, timeoutMs, binds, opts) =>
            opts?.persistent ? run(argv, stdin, timeoutMs, binds, opts) : oneShot(argv, stdin, timeoutMs, binds, opts),
        }
      : {}),
  };
}

/** At most `size` tasks at a time; the others start in the order they asked. */
class Slots {
  private busy = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly size: number) {}

  async use<T>(task: () => Promise<T>): Promise<T> {
    if (this.busy >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.busy++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.busy--;
    }
  }
}
