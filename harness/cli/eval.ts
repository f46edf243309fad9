/**
 * npm run eval -- [--tasks ...] [--gates ...] [--agents ...] [--approvers ...] [--trials N]
 *                 [--concurrency N] [--out DIR] [--resume] [--shard I/N] [--compare BASE] [--json]
 */
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { selectGateConfigs } from "../../gates/config.ts";
import { parseApproverNames } from "../approvers/index.ts";
import { ESTIMATE_ENCODING, PRICE_REFERENCE } from "../agent/tokens.ts";
import { InputError } from "../../kernel/errors.ts";
import { compareSummaries, loadBaseSummary, renderComparison } from "../report/compare.ts";
import { renderMarkdown, renderTerminalTable } from "../report/render.ts";
import { summarize } from "../report/summary.ts";
import { checkPersonasExist, parseAgentSelectors } from "../runner/agents.ts";
import { runMatrix } from "../runner/matrix.ts";
import { RunOutput } from "../runner/output.ts";
import { sweepStaleWorlds, watchLauncher } from "../process/ownership.ts";
import { DEFAULT_TRIALS_DIR } from "../world/trial-dir.ts";
import { loadTasks, selectTaskIds } from "../task/load.ts";
import { intFlag, parseCli, run } from "./main.ts";

const OPTIONS = {
  tasks: { type: "string" },
  gates: { type: "string" },
  agents: { type: "string" },
  approvers: { type: "string" },
  trials: { type: "string" },
  concurrency: { type: "string" },
  out: { type: "string" },
  resume: { type: "boolean" },
  shard: { type: "string" },
  compare: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const USAGE = `usage: npm run eval -- [--tasks t7_cleanup_tmp,t1_*] [--gates none,pi-permission-gate] [--agents reference,scripted,nop]
                     [--approvers fatigued,headless,rubber-stamp,oracle-scope] [--trials N] [--concurrency N] [--out DIR]
                     [--resume] [--shard I/N] [--compare BASE] [--json]`;

function parseShard(v: string | undefined): { index: number; count: number } | undefined {
  if (v === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(v);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) throw new InputError("command line", "--shard", `I/N with 1 <= I <= N (got "${v}")`);
  return { index, count };
}

export function newRunId(now = new Date()): string {
  return `${now.toISOString().replace(/[-:]/g, "").replace(/\..*$/, "").replace("T", "-")}-${randomBytes(2).toString("hex")}`;
}

async function main(): Promise<number> {
  const { values: a } = parseCli(process.argv.slice(2), OPTIONS);
  if (a.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const tasks = loadTasks(selectTaskIds(a.tasks));
  if (tasks.length === 0) throw new InputError("tasks/", "(folder)", "at least one task");
  const gates = selectGateConfigs(a.gates);
  const agents = parseAgentSelectors(a.agents);
  checkPersonasExist(agents, tasks);
  const approvers = parseApproverNames(a.approvers);
  const trials = intFlag(a.trials, "--trials", 1);
  // Trials mostly wait on sandbox start-up and child processes: two per core keeps both busy.
  const concurrency = intFlag(a.concurrency, "--concurrency", Math.max(2, 2 * availableParallelism()));
  const shard = parseShard(a.shard);
  const base = a.compare ? loadBaseSummary(a.compare) : undefined;
  if (a.resume && !a.out) throw new InputError("command line", "--resume", "--out DIR naming the run to continue");

  const outDir = resolve(a.out ?? join("reports", "runs", newRunId()));
  const output = new RunOutput(outDir);
  // One writer per out dir (RunOutput holds its lock); worlds of runs that are gone are swept; this run ends with its launcher.
  sweepStaleWorlds(DEFAULT_TRIALS_DIR, (m) => process.stderr.write(m));
  watchLauncher();
  const previous = output.readResults();
  if (previous.length > 0 && !a.resume) throw new InputError("command line", "--out", `an empty folder, or --resume to continue the run in ${outDir}`);
  const runId = previous[0]?.run_id ?? outDir.split("/").pop()!;

  const started = performance.now();
  const interactive = process.stderr.isTTY && !a.json;
  const records = await runMatrix({
    runId,
    tasks,
    gates,
    agents,
    approvers,
    trials,
    concurrency,
    ...(shard ? { shard } : {}),
    output,
    resume: a.resume ?? false,
    onTrial: (r, done, total) => {
      const line = `[${done}/${total}] ${r.task} ${r.agent} ${r.gate}/${r.approver}: ${r.outcome}${r.harmed ? " HARMED" : ""}${r.blocked ? ` blocked=${r.blocked}` : ""}${r.error ? ` (${r.error.slice(0, 120)})` : ""}`;
      if (interactive) process.stderr.write(`\r\x1b[K${line}`);
      else if (!a.json) process.stderr.write(`${line}\n`);
    },
  });
  if (interactive) process.stderr.write("\n");
  const wallMs = Math.round(performance.now() - started);
  const summary = summarize(runId, records, {
    tasks: tasks.length,
    gates: gates.map((g) => g.name),
    approvers,
    trials_per_cell: trials,
    token_source: [...new Set(records.map((r) => r.token_source))].join(", ") || `estimated:${ESTIMATE_ENCODING}`,
    price_reference: `${PRICE_REFERENCE.provider}/${PRICE_REFERENCE.model}`,
    wall_ms: wallMs,
    ...(shard ? { shard: `${shard.index}/${shard.count}` } : {}),
  });
  let markdown = renderMarkdown(summary);
  let exit = 0;
  let comparisonText = "";
  if (base) {
    const cmp = compareSummaries(base, summary);
    comparisonText = renderComparison(cmp);
    markdown += `\n${comparisonText}\n`;
    if (cmp.regressions.length > 0) exit = 1;
  }
  output.writeSummary(summary, markdown);
  if (a.json) {
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  } else {
    process.stdout.write(`${renderTerminalTable(summary)}\n`);
    if (comparisonText) process.stdout.write(`\n${comparisonText}\n`);
    const errors = records.filter((r) => r.outcome === "harness_error").length;
    process.stdout.write(`\n${records.length} trials in ${(wallMs / 1000).toFixed(1)} s${errors ? `, ${errors} harness errors` : ""} · results in ${outDir}\n`);
  }
  return exit;
}

run(main);
