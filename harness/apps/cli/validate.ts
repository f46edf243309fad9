/**
 * npm run validate -- [--tasks ...] [--tasks-dir <dir>] [--json] [--concurrency N]
 *
 * Every selected task is loaded first and every load error of every task is reported (an
 * INVALID row with a `load` rule per problem, the same entries in `--json`); the tasks that
 * loaded are then validated by running them. Exit 0 all valid, 1 a rule broken, 2 a task
 * could not be loaded.
 */
import Table from "cli-table3";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { InputError } from "../../../kernel/errors.ts";
import { inspectTask, selectTaskIds, TASKS_DIR, type LoadedTask } from "../../model/task/load.ts";
import { redactDeep } from "../../text/redact/redact.ts";
import { validateTask, type TaskValidation } from "../validate/rules.ts";
import { intFlag, parseCli, run } from "./main.ts";
import { sayErr, sayJson, sayOut } from "../../text/redact/terminal.ts";
import { escapeControls } from "../../text/escape/controls.ts";
import { checkSandboxAccess } from "../../sandbox/world/access.ts";

const OPTIONS = {
  tasks: { type: "string" },
  "tasks-dir": { type: "string" },
  json: { type: "boolean" },
  concurrency: { type: "string" },
} as const;

/** A task that could not be loaded: one broken `load` rule per problem found. */
function loadFailure(id: string, errors: readonly Error[]): TaskValidation {
  return { task: id, valid: false, rules: errors.map((e) => ({ rule: "load", ok: false, detail: e.message })) };
}

async function main(): Promise<number> {
  const { values: a } = parseCli(process.argv.slice(2), OPTIONS);
  const concurrency = intFlag(a.concurrency, "--concurrency", Math.max(1, Math.ceil(availableParallelism() / 2)));
  const tasksDir = a["tasks-dir"] ?? TASKS_DIR;
  let ids: string[];
  try {
    ids = selectTaskIds(a.tasks, tasksDir);
  } catch (e) {
    // --json promises one JSON document on stdout even when the selection itself is bad.
    if (!(e instanceof InputError) || !a.json) throw e;
    sayJson("stdout", [loadFailure(a.tasks ?? "", [e])]);
    sayErr(`gatebench: bad input: ${e.message}\n`);
    return 2;
  }
  // Before any world: every task would fail if the sandbox users could not reach what they bind.
  checkSandboxAccess();
  const reports = ids.map((id) => inspectTask(join(tasksDir, id)));
  const results: TaskValidation[] = reports.map((r) => (r.loaded ? { task: r.id, valid: false, rules: [] } : loadFailure(r.id, r.errors)));
  const todo = reports.flatMap((r, i) => (r.loaded ? [{ i, task: r.loaded as LoadedTask }] : []));
  for (const r of reports) if (!r.loaded && !a.json) sayErr(`validated ${r.id}: INVALID (${r.errors.length} load error${r.errors.length === 1 ? "" : "s"})\n`);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, todo.length) }, async () => {
      while (next < todo.length) {
        const { i, task } = todo[next++]!;
        results[i] = await validateTask(task);
        if (!a.json) sayErr(`validated ${results[i]!.task}: ${results[i]!.valid ? "valid" : "INVALID"}\n`);
      }
    }),
  );
  if (a.json) {
    sayJson("stdout", results);
  } else {
    // The table is built from a redacted copy (test output can quote secrets): wrapping could split one across lines.
    const table = new Table({ head: ["task", "status", "broken rules"], style: { head: [], border: [] }, wordWrap: true, colWidths: [28, 9, 90] });
    for (const r of redactDeep(results)) {
      const broken = r.rules.filter((x) => !x.ok);
      // escaped before the table wraps and measures its cells: the evidence quotes setup and test output
      table.push([
        escapeControls(r.task),
        r.valid ? "valid" : "INVALID",
        escapeControls(broken.map((b) => `${b.rule}: ${b.detail}${b.evidence?.length ? `\n    ${b.evidence.slice(0, 8).join("\n    ")}` : ""}`).join("\n")),
      ]);
    }
    sayOut(`${table.toString()}\n${results.filter((r) => r.valid).length}/${results.length} tasks valid\n`);
  }
  if (reports.some((r) => !r.loaded)) return 2;
  return results.every((r) => r.valid) ? 0 : 1;
}

run(main);
