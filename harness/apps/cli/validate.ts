/**
 * gatebench validate [--tasks ...] [--tasks-dir <dir>]... [--json] [--concurrency N]
 * (in a checkout: npm run validate -- ...)
 *
 * With --tasks-dir and no --tasks it validates the tasks of those folders; --tasks picks among
 * the built-in tasks and theirs.
 *
 * Every selected task is loaded first and every load error of every task is reported (an
 * INVALID row with a `load` rule per problem, the same entries in `--json`); the tasks that
 * loaded are then validated by running them. Exit 0 all valid, 1 a rule broken, 2 a task
 * could not be loaded.
 */
import Table from "cli-table3";
import { availableParallelism } from "node:os";
import { InputError } from "../../../kernel/errors.ts";
import { inspectTask, TaskCatalog, type LoadedTask } from "../../model/task/load.ts";
import { redactDeep } from "../../text/redact/redact.ts";
import { validateTask, type TaskValidation } from "../validate/rules.ts";
import { renderHelp, TASKS_DIR_LINE, type FlagHelp } from "./help.ts";
import { intFlag, parseCli, runIfMain } from "./main.ts";
import { sayErr, sayJson, sayOut } from "../../text/redact/terminal.ts";
import { escapeControls } from "../../text/escape/controls.ts";
import { truncateToWidth } from "../../text/width.ts";
import { checkSandboxAccess } from "../../sandbox/world/access.ts";

const OPTIONS = {
  tasks: { type: "string" },
  "tasks-dir": { type: "string", multiple: true },
  json: { type: "boolean" },
  concurrency: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const FLAGS: FlagHelp<typeof OPTIONS> = {
  tasks: ["IDS", "task ids or globs, comma-separated ('*' is every task)"],
  "tasks-dir": ["DIR", TASKS_DIR_LINE],
  json: "print the verdicts as JSON (one document, even for bad input)",
  concurrency: ["N", "tasks validated at once (default half the cores)"],
  help: "this text",
};

export function validateHelp(): string {
  return renderHelp({
    usage: ["gatebench validate [flags]", "npm run validate -- [flags]   (in a gatebench checkout)"],
    summary: [
      "Checks that every selected task is sound by running it in sandboxes: an agent that does nothing fails the hidden",
      "test, the reference passes it with no wrongful effect and twice the same, each persona marked harmful harms with no",
      "gate and each harmless one does not, and the hidden test is out of the agent's reach (tasks/README.md).",
      "Exit 0 all valid, 1 a rule broken, 2 a task could not be loaded.",
    ].join("\n"),
    options: OPTIONS,
    flags: FLAGS,
  });
}

/** A task that could not be loaded: one broken `load` rule per problem found. */
function loadFailure(id: string, errors: readonly Error[]): TaskValidation {
  return { task: id, valid: false, rules: errors.map((e) => ({ rule: "load", ok: false, detail: e.message })) };
}

export async function validateMain(argv: string[]): Promise<number> {
  const { values: a } = parseCli(argv, OPTIONS);
  if (a.help) {
    sayOut(validateHelp());
    return 0;
  }
  const concurrency = intFlag(a.concurrency, "--concurrency", Math.max(1, Math.ceil(availableParallelism() / 2)));
  let catalog: TaskCatalog;
  let ids: string[];
  try {
    catalog = new TaskCatalog(a["tasks-dir"] ?? []);
    ids = catalog.select(a.tasks);
  } catch (e) {
    // --json promises one JSON document on stdout even when the selection itself is bad.
    if (!(e instanceof InputError) || !a.json) throw e;
    sayJson("stdout", [loadFailure(a.tasks ?? "", [e])]);
    sayErr(`gatebench: bad input: ${e.message}\n`);
    return 2;
  }
  // Before any world: every task would fail if the sandbox users could not reach what they bind.
  checkSandboxAccess();
  const reports = ids.map((id) => inspectTask(catalog.dir(id)));
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
    const varying = redactDeep(results).filter((r) => r.setup && !r.setup.deterministic);
    if (varying.length > 0) {
      const lines = varying.map((r) =>
        truncateToWidth(
          `  ${escapeControls(r.task)}: ${escapeControls(r.setup!.unknown ?? `${r.setup!.differences.length === 20 ? "20+" : r.setup!.differences.length} paths differ: ${r.setup!.differences.slice(0, 3).join(", ")}`)}`,
          99,
        ),
      );
      sayOut(`setup not deterministic (its world states are never kept beyond one run):\n${lines.join("\n")}\n`);
    }
  }
  if (reports.some((r) => !r.loaded)) return 2;
  return results.every((r) => r.valid) ? 0 : 1;
}

runIfMain(import.meta.url, () => validateMain(process.argv.slice(2)));
