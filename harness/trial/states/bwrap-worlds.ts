/**
 * The worlds of real trials (worlds.ts): bubblewrap sandboxes over trial dirs
 * (harness/sandbox/world/world.ts). A world is a trial dir bound into one sandbox; a checkpoint is
 * a copy of a trial dir owned by its own sandbox user; a view is a lazily started sandbox over a
 * checkpoint; setup.sh runs in a one-shot sandbox on the world's dirs.
 */
import type { LoadedTask } from "../../model/task/load.ts";
import { removeTree } from "../../sandbox/world/trial-dir.ts";
import {
  checkpointWorld,
  cloneWorld,
  createWorld,
  discardCheckpoint,
  escalatedView,
  openView,
  removeAtExit,
  type CreateWorldOptions,
  type TrialDir,
  type TrialWorld,
} from "../../sandbox/world/world.ts";
import type { Checkpoint, WorldHandle, Worlds, WorldTemplate } from "./worlds.ts";

/** Runs the task's setup.sh in `world`; throws (the world left to the caller) when it fails. */
async function runSetup(world: TrialWorld, task: LoadedTask): Promise<void> {
  const setup = await world.runScript(task.setupPath, { timeoutMs: 60_000 });
  if (setup.exitCode !== 0) throw new Error(`setup.sh failed (exit ${setup.exitCode}): ${`${setup.stdout.slice(-200)}\n${setup.stderr.slice(-400)}`.trim()}`);
}

/** The worlds these functions make are bubblewrap worlds: world.ts checks it again (instanceof) where it matters. */
const bwrap = (world: WorldHandle): TrialWorld => world as TrialWorld;

export const BWRAP_WORLDS: Worlds = {
  async template(task: LoadedTask): Promise<WorldTemplate> {
    const world = await createWorld({ mounts: task.task.world.mounts, keep: true });
    const forget = removeAtExit(world.dir);
    try {
      await runSetup(world, task);
    } finally {
      await world.close();
    }
    return {
      world,
      remove: async () => {
        await removeTree(world.dir);
        forget();
      },
    };
  },

  async setUp(task: LoadedTask, options: CreateWorldOptions): Promise<WorldHandle> {
    const world = await createWorld(options);
    try {
      await runSetup(world, task);
    } catch (e) {
      await world.close().catch(() => undefined);
      throw e;
    }
    return world;
  },

  clone: (world, overrides) => cloneWorld(bwrap(world), overrides),
  escalated: (world) => escalatedView(bwrap(world)),
  checkpoint: (world) => checkpointWorld(bwrap(world)),
  view: (checkpoint: Checkpoint, options) => openView(checkpoint as TrialDir, options),
  discard: (checkpoint: Checkpoint) => discardCheckpoint(checkpoint as TrialDir),
};
