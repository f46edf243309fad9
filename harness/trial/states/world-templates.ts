/**
 * Setup runs once per task and run: the world it builds is kept as a template and every
 * trial starts from a copy (links copied as links). Setup scripts are deterministic, so this
 * only saves time — and guarantees every gate sees the very same S0.
 */
import type { LoadedTask } from "../../model/task/load.ts";
import { removeTree } from "../../sandbox/world/trial-dir.ts";
import { createWorld, removeAtExit, type TrialWorld } from "../../sandbox/world/world.ts";

export class WorldTemplates {
  private readonly built = new Map<string, Promise<TrialWorld>>();
  private readonly forget: (() => void)[] = [];

  /** The closed (but kept) world after the task's setup.sh; rejects when setup fails. */
  template(task: LoadedTask): Promise<TrialWorld> {
    let t = this.built.get(task.task.id);
    if (!t) {
      t = (async () => {
        const world = await createWorld({ mounts: task.task.world.mounts, keep: true });
        this.forget.push(removeAtExit(world.dir));
        try {
          const setup = await world.runScript(task.setupPath, { timeoutMs: 60_000 });
          if (setup.exitCode !== 0)
            throw new Error(`setup.sh failed (exit ${setup.exitCode}): ${`${setup.stdout.slice(-200)}\n${setup.stderr.slice(-400)}`.trim()}`);
        } finally {
          await world.close();
        }
        return world;
      })();
      this.built.set(task.task.id, t);
    }
    return t;
  }

  async dispose(): Promise<void> {
    const worlds = await Promise.allSettled(this.built.values());
    this.built.clear();
    await Promise.all(worlds.map((w) => (w.status === "fulfilled" ? removeTree(w.value.dir) : undefined)));
    for (const f of this.forget.splice(0)) f();
  }
}
