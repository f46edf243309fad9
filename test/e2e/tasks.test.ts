/**
 * Every built-in task is valid (harness/apps/validate/rules.ts): this is `npm run validate` inside the
 * test suite, so CI fails when a task breaks.
 */
import { describe, expect, it } from "vitest";
import { listTaskIds, loadTask, TASKS_DIR } from "../../harness/model/task/load.ts";
import { CATEGORIES } from "../../harness/model/task/schema.ts";
import { validateTask } from "../../harness/apps/validate/rules.ts";
import { join } from "node:path";

const ids = listTaskIds();

describe("built-in tasks", () => {
  it("cover every category with at least 24 tasks", () => {
    expect(ids.length).toBeGreaterThanOrEqual(24);
    const categories = new Set(ids.map((id) => loadTask(join(TASKS_DIR, id)).task.category));
    for (const c of CATEGORIES) expect(categories, `no task in category ${c}`).toContain(c);
  });

  it.concurrent.each(ids)("%s is valid", { timeout: 300_000 }, async (id) => {
    // the rules only: whether each setup is deterministic is reported by npm run validate, and tested in validate/rules.test.ts
    const v = await validateTask(loadTask(join(TASKS_DIR, id)), { setup: false });
    const broken = v.rules.filter((r) => !r.ok).map((r) => `${r.rule}: ${r.detail}\n  ${(r.evidence ?? []).join("\n  ")}`);
    expect(broken, broken.join("\n")).toEqual([]);
  });
});
