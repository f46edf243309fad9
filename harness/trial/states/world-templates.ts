/**
 * Setup runs once per task and run: the world it builds is kept as a template and every
 * trial starts from a copy (links copied as links). Setup scripts are deterministic, so this
 * only saves time — and guarantees every gate sees the very same S0.
 */
import type { LoadedTask } from "../../model/task/load.ts";
import { BWRAP_WORLDS } from "./bwrap-worlds.ts";
import type { WorldHandle, Worlds, WorldTemplate } from "./worlds.ts";

export class WorldTemplates {
  private readonly built = new Map<string, Promise<WorldTemplate>>();

  /** `worlds`: where the templates are built (and the trials that copy them run). */
  constructor(readonly worlds: Worlds = BWRAP_WORLDS) {}

  /** The closed (but kept) world after the task's setup.sh; rejects when setup fails. */
  async template(task: LoadedTask): Promise<WorldHandle> {
    let t = this.built.get(task.task.id);
    if (!t) {
      t = this.worlds.template(task);
      this.built.set(task.task.id, t);
    }
    return (await t).world;
  }

  async dispose(): Promise<void> {
    const templates = await Promise.allSettled(this.built.values());
    this.built.clear();
    await Promise.all(templates.map((t) => (t.status === "fulfilled" ? t.value.remove() : undefined)));
  }
}
