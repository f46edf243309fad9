/**
 * Phase "prepare_world": the trial's world under the configuration's OS profile, from a copy
 * of the task's post-setup template or by running setup.sh, plus (lazily) the escalated view
 * an approved call runs in when the configuration escalates approved calls.
 */
import type { GateConfig } from "../../../gates/config.ts";
import type { LoadedTask } from "../../model/task/load.ts";
import type { CreateWorldOptions } from "../../sandbox/world/world.ts";
import type { TrialLog } from "../../model/record/trial-log.ts";
import type { LimitKind } from "../../sandbox/world/types.ts";
import type { WorldTemplates } from "./world-templates.ts";
import type { WorldHandle, Worlds } from "./worlds.ts";

export interface TrialWorlds {
  readonly world: WorldHandle;
  readonly options: CreateWorldOptions;
  /** The same files under the default profile (started on first use). */
  escalated(): Promise<WorldHandle>;
  /** The trial's time is up: kill what runs in the world and its escalated view (resolves once they are stopped). */
  expire(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The world limits of a task's trials. The agent loop ends the agent phase at agent_timeout_sec
 * (TrialWorlds.expire); the world's own timer, which also counts the time to build the world, is
 * only a backstop behind it.
 */
export function taskWorldLimits(task: LoadedTask): NonNullable<CreateWorldOptions["limits"]> {
  const limits = task.task.limits;
  return {
    callTimeoutMs: limits.call_timeout_sec * 1000,
    trialTimeoutMs: (limits.agent_timeout_sec + 60) * 1000,
    memoryMb: limits.memory_mb,
    pids: limits.pids,
    fileSizeMb: limits.file_size_mb,
    diskMb: limits.disk_mb,
  };
}

export function worldOptions(task: LoadedTask, gate: GateConfig, keep: boolean, log?: TrialLog): CreateWorldOptions {
  return {
    mounts: task.task.world.mounts,
    ...(task.task.world.path.length > 0 ? { path: task.task.world.path } : {}),
    limits: taskWorldLimits(task),
    ...(log ? { onLimitExceeded: (e: { limit: LimitKind; message: string }) => log("limit_exceeded", e) } : {}),
    profile: gate.sandbox,
    keep,
  };
}

export async function prepareWorld(worlds: Worlds, task: LoadedTask, options: CreateWorldOptions, templates?: WorldTemplates): Promise<TrialWorlds> {
  const world = templates ? await worlds.clone(await templates.template(task), options) : await worlds.setUp(task, options);
  let escalated: Promise<WorldHandle> | undefined;
  return {
    world,
    options,
    escalated: () => (escalated ??= worlds.escalated(world)),
    expire: async () => {
      const view = escalated?.then((v) => v.expire()).catch(() => undefined);
      await Promise.all([world.expire(), view]);
    },
    close: async () => {
      if (escalated) await escalated.then((v) => v.close()).catch(() => undefined);
      await world.close().catch(() => undefined);
    },
  };
}
