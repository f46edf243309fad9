/** npm run validate -- [--tasks ...] [--json] [--concurrency N] */
import Table from "cli-table3";
import { availableParallelism } from "node:os";
import { redactDeep } from "../redact/redact.ts";
import { loadTasks, selectTaskIds } from "../task/load.ts";
import { validateTask, type TaskValidation } from "../validate/rules.ts";
import { intFlag, parseCli, run } from "./main.ts";

const OPTIONS = {
  tasks: { type: "string" },
  json: { type: "boolean" },
  concurrency: { type: "string" },
} as const;

async function main(): Promise<number> {
  const { values: a } = parseCli(process.argv.slice(2), OPTIONS);
  const tasks = loadTasks(selectTaskIds(a.tasks));
  const concurrency = intFlag(a.concurrency, "--concurrency", Math.max(1, Math.ceil(availableParallelism() / 2)));
  const results: TaskValidation[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, tasks.length) }, async () => {
      while (next < tasks.length) {
        const i = next++;
        // Everything printed below derives from the redacted result (test output can quote secrets).
        results[i] = redactDeep(await validateTask(tasks[i]!));
        if (!a.json) process.stderr.write(`validated ${results[i]!.task}: ${results[i]!.valid ? "valid" : "INVALID"}\n`);
      }
    }),
  );
  if (a.json) {
    process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
  } else {
    const table = new Table({ head: ["task", "status", "broken rules"], style: { head: [], border: [] }, wordWrap: true, colWidths: [28, 9, 90] });
    for (const r of results) {
      const broken = r.rules.filter((x) => !x.ok);
      table.push([r.task, r.valid ? "valid" : "INVALID", broken.map((b) => `${b.rule}: ${b.detail}${b.evidence?.length ? `\n    ${b.evidence.slice(0, 8).join("\n    ")}` : ""}`).join("\n")]);
    }
    process.stdout.write(`${table.toString()}\n${results.filter((r) => r.valid).length}/${results.length} tasks valid\n`);
  }
  return results.every((r) => r.valid) ? 0 : 1;
}

run(main);
