/**
 * gatebench eval [--tasks ...] [--tasks-dir DIR]... [--gates ...] [--agents ...] [--approvers ...] [--trials N] [--epochs k]
 *                [--concurrency N] [--out DIR] [--resume] [--shard I/N] [--compare BASE] [--no-cache] [--table headline|full] [--json]
 *                [--record DIR | --replay DIR] [--record-personas] [--verbose]
 * gatebench merge <shard dirs...> [--tasks-dir DIR]... [--out DIR] [--compare BASE] [--table headline|full] [--json]
 * gatebench store gc [--store DIR] [--max-mb N] [--older-than-days N]
 * (in a checkout: npm run eval -- ..., npm run eval -- merge ..., npm run eval -- store gc ...)
 */
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";
import { selectGateConfigs } from "../../../gates/config.ts";
import { parseGateEntry } from "../../../gates/config-entry.ts";
import { parseApproverNames } from "../../trial/approvers/index.ts";
import { ESTIMATE_ENCODING } from "../../trial/agent/tokens.ts";
import { PRICE_REFERENCE_LABEL } from "../../trial/agent/price-reference.ts";
import { InputError } from "../../../kernel/errors.ts";
import type { CacheStats } from "../../trial/states/world-states.ts";
import { renderComparison, resolveBase, type BaseRun } from "../../run/report/statistics/compare.ts";
import { renderRunText, runFooter, TABLE_KINDS, type TableKind } from "../../run/report/views/render.ts";
import { FAIL_ON, type FailOn } from "../../run/report/statistics/paired.ts";
import { checkShards, copyTrialFiles, loadShard, mergedMeta, mergeRecords } from "../../run/report/publishing/merge.ts";
import { collectRunMeta } from "../../run/report/meta/metadata.ts";
import type { SummaryMeta } from "../../run/report/meta/run-meta.ts";
import { createProgress } from "../../run/report/views/progress.ts";
import { publishRun, type Published } from "../../run/report/publishing/publish.ts";
import { Recordings } from "../../trial/agent/drivers/recordings.ts";
import { Cassette, CassetteWriter, MANIFEST_FILE } from "../../trial/agent/drivers/cassette.ts";
import { preflightSelectors, recordSelector, replaySelector, selectorRecordable, selectorSampled } from "../../trial/agent/drivers/registry.ts";
import { preflightGateConfigs } from "../../trial/gate-preflight.ts";
import { type AgentSelector, checkPersonasExist, pairGates, parseAgentSelectors } from "../../run/matrix/agents.ts";
import { isErrored, type TrialRecord } from "../../model/record/record.ts";
import { renderAgentsTerminal } from "../../run/report/views/agents-table.ts";
import { planTrials, runMatrix, type ReuseStats } from "../../run/matrix/matrix.ts";
import { collectProvenance } from "../../run/report/meta/provenance.ts";
import { DEFAULT_STORE_MAX_BYTES, ResultStore } from "../../run/matrix/result-store.ts";
import { codeFingerprints } from "../../run/matrix/code-fingerprint.ts";
import { Fingerprinter } from "../../run/matrix/fingerprint.ts";
import { RunOutput } from "../../run/output/output.ts";
import { sweepStaleWorlds, watchLauncher } from "../../sandbox/process/ownership.ts";
import { DEFAULT_TRIALS_DIR } from "../../sandbox/world/trial-dir.ts";
import { TaskCatalog } from "../../model/task/load.ts";
import { checkSandboxAccess } from "../../sandbox/world/access.ts";
import { mutantFamilies } from "../../run/report/statistics/robustness.ts";
import { gatesSection, OUTPUT_SECTION, renderHelp, TASKS_DIR_LINE, type FlagHelp } from "./help.ts";
import { agentsSection, approversSection, realModelsSection } from "./help-eval.ts";
import { intFlag, parseCli, runIfMain } from "./main.ts";
import { parseShard } from "./shard.ts";
import { cacheLines, reuseLines } from "./run-notes.ts";
import { sayErr, sayJson, sayOut } from "../../text/redact/terminal.ts";
import { redact } from "../../text/redact/redact.ts";

const OPTIONS = {
  tasks: { type: "string" },
  "tasks-dir": { type: "string", multiple: true },
  gates: { type: "string" },
  agents: { type: "string" },
  approvers: { type: "string" },
  trials: { type: "string" },
  epochs: { type: "string" },
  concurrency: { type: "string" },
  out: { type: "string" },
  resume: { type: "boolean" },
  shard: { type: "string" },
  compare: { type: "string" },
  "fail-on": { type: "string" },
  "no-cache": { type: "boolean" },
  store: { type: "string" },
  "no-store": { type: "boolean" },
  extend: { type: "boolean" },
  table: { type: "string" },
  json: { type: "boolean" },
  record: { type: "string" },
  replay: { type: "string" },
  "record-personas": { type: "boolean" },
  verbose: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** The default number of epochs of a real model's trials (each a sample of a stochastic model). */
export const DEFAULT_EPOCHS = 3;

/** Where finished trials are kept by fingerprint unless --store DIR, --no-store or GATEBENCH_STORE (harness/run/matrix/result-store.ts). */
export const DEFAULT_STORE_DIR = join("reports", "store");

/** The store folder a run uses: --store, else GATEBENCH_STORE (a folder, or "off"), else reports/store; undefined: none. */
export function storeDir(flag: string | undefined, off: boolean, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (off) return undefined;
  if (flag !== undefined) return resolve(flag);
  const fromEnv = env.GATEBENCH_STORE;
  if (fromEnv === "off") return undefined;
  return resolve(fromEnv || DEFAULT_STORE_DIR);
}

const FLAGS: FlagHelp<typeof OPTIONS> = {
  tasks: ["IDS", "task ids or globs, comma-separated (t7_cleanup_tmp,t1_*; '*' is every task)"],
  "tasks-dir": ["DIR", TASKS_DIR_LINE],
  gates: ["LIST", "gate configurations, comma-separated (below)"],
  agents: ["LIST", "agents, comma-separated (below)"],
  approvers: ["LIST", "simulated users who answer the gates' questions (below)"],
  trials: ["N", "attempts of each scripted trial (default 1); alone, also the epochs of real models"],
  epochs: ["K", "runs of each real-model trial (default 3): per-task harm rates and pass^k"],
  concurrency: ["N", "trials at once (default 4 per core; 1 with --record-personas)"],
  out: ["DIR", "the run folder (default reports/runs/<run id> under the current folder)"],
  resume: "continue the run in --out DIR, keeping the records whose fingerprint still matches",
  shard: ["I/N", "run every N-th trial of the matrix, starting at the I-th (merge the shards with gatebench merge)"],
  compare: ["BASE", "compare with a run folder, a summary.json or a git ref (reads reports/baseline/ there); exit 1 on a regression"],
  "fail-on": ["WHEN", "newly-harmed (default), significant or never: when a comparison exits 1"],
  "no-cache": "every trial in its own world (slower, identical records)",
  store: ["DIR", "the result store (default reports/store, or GATEBENCH_STORE)"],
  "no-store": "neither read nor write the result store",
  extend: "with --resume: add this run's trials to the earlier run's matrix",
  table: ["KIND", "headline (default: one row per gate under the headline user, within 100 columns) or full (every gate × user row and column)"],
  json: "print summary.json instead of the table",
  record: ["DIR", "keep every model request and response of the run in DIR (a cassette, redacted)"],
  replay: ["DIR", "run offline from a cassette: no network, no key; a trial whose request has no recorded response is diverged"],
  "record-personas": "save each real model's trials as personas under <out>/recorded/<task>/ (one trial at a time)",
  verbose: "every count of what the shared world states and the result store did, not one line each",
  help: "this text",
};

export function evalHelp(): string {
  return renderHelp({
    usage: ["gatebench eval [flags]", "npm run eval -- [flags]   (in a gatebench checkout)"],
    summary:
      "Runs every selected task under every gate configuration, with every agent and simulated user, each tool call in a\nbubblewrap sandbox, and reports what each gate prevented and what it cost.",
    options: OPTIONS,
    flags: FLAGS,
    sections: [gatesSection(), agentsSection(), realModelsSection(), approversSection(), OUTPUT_SECTION],
  });
}

export function newRunId(now = new Date()): string {
  return `${now.toISOString().replace(/[-:]/g, "").replace(/\..*$/, "").replace("T", "-")}-${randomBytes(2).toString("hex")}`;
}

const MERGE_OPTIONS = {
  "tasks-dir": { type: "string", multiple: true },
  out: { type: "string" },
  compare: { type: "string" },
  "fail-on": { type: "string" },
  table: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** --table: the headline table (default, within 100 columns) or every gate × approver row and column. */
function parseTable(v: string | undefined): TableKind {
  if (v === undefined) return "headline";
  if (!(TABLE_KINDS as readonly string[]).includes(v)) throw new InputError("command line", "--table", `one of ${TABLE_KINDS.join(", ")}`);
  return v as TableKind;
}

const MERGE_FLAGS: FlagHelp<typeof MERGE_OPTIONS> = {
  "tasks-dir": ["DIR", "a folder of task folders the shards ran (their evasion variants' families are read from it)"],
  out: ["DIR", "the merged run folder (default reports/runs/<run id>-merged under the current folder)"],
  compare: ["BASE", "compare with a run folder, a summary.json or a git ref; exit 1 on a regression"],
  "fail-on": ["WHEN", "newly-harmed (default), significant or never"],
  table: ["KIND", "headline (default) or full (every gate × user row and column)"],
  json: "print summary.json instead of the table",
  help: "this text",
};

export function mergeHelp(): string {
  return renderHelp({
    usage: ["gatebench merge <shard dir>... [flags]", "npm run merge -- <shard dir>... [flags]   (in a gatebench checkout)"],
    summary:
      "Merges the run folders of every shard of one matrix (gatebench eval --shard I/N --out DIR) into one run: checks that\nall N shards of one fingerprint are there and finished, and recomputes summary, summary.md and report.html.",
    options: MERGE_OPTIONS,
    flags: MERGE_FLAGS,
    sections: [OUTPUT_SECTION],
  });
}

function parseFailOn(v: string | undefined): FailOn {
  if (v === undefined) return "newly-harmed";
  if (!(FAIL_ON as readonly string[]).includes(v)) throw new InputError("command line", "--fail-on", `one of ${FAIL_ON.join(", ")}`);
  return v as FailOn;
}

/** What publishRun needs of the --compare base. */
function baseOptions(base: BaseRun | undefined, failOn: FailOn) {
  return base ? { base: base.summary, ...(base.records ? { baseRecords: base.records } : {}), failOn } : {};
}

/** The exit code of a run whose every trial was errored (harness error, unmeasured, diverged): nothing was measured. */
export const EXIT_NOTHING_MEASURED = 3;

/**
 * The terminal tables (or the summary as JSON), the comparison, and the exit code: the scripted
 * rows (none when only real models ran), then one table per agent without a harm label.
 */
function finish(published: Published, records: readonly TrialRecord[], wallMs: number, outDir: string, json: boolean, table: TableKind): number {
  const { summary, comparison } = published;
  if (json) sayJson("stdout", summary);
  else {
    const agents = renderAgentsTerminal(summary);
    const run = { table, records, wallMs, outDir, ...(comparison ? { comparison } : {}) };
    if (summary.rows.length > 0) sayOut(renderRunText(summary, run));
    if (agents) sayOut(`${summary.rows.length > 0 ? "\n" : ""}${agents}`);
    if (summary.rows.length === 0) sayOut(`\n${runFooter(summary, run).join("\n")}\n`);
  }
  if (comparison && json && comparison.regressions.length) sayErr(`${renderComparison(comparison)}\n`);
  if (records.length > 0 && records.every(isErrored)) {
    const unmeasured = records.some((r) => r.outcome === "measurement_failed" || r.outcome === "diverged");
    // Redacted before it is cut: a secret cut in half is no longer recognised by its shape.
    const first = redact(records.find((r) => r.error)?.error ?? "") || undefined;
    sayErr(
      `gatebench: nothing was measured: all ${records.length} trials ended as harness errors${unmeasured ? ", unmeasured or diverged" : ""}${first ? ` (first: ${first.slice(0, 200)})` : ""}\n`,
    );
    return EXIT_NOTHING_MEASURED;
  }
  return comparison && comparison.regressions.length > 0 ? 1 : 0;
}

export async function mergeMain(argv: string[]): Promise<number> {
  const { values: a, positionals: dirs } = parseCli(argv, MERGE_OPTIONS, true);
  if (a.help) {
    sayOut(mergeHelp());
    return 0;
  }
  const catalog = new TaskCatalog(a["tasks-dir"] ?? []);
  if (dirs.length === 0) throw new InputError("command line", "merge", "one or more run folders written by npm run eval -- --shard I/N --out DIR");
  const started = performance.now();
  const shards = dirs.map((d) => loadShard(resolve(d)));
  checkShards(shards);
  const base = a.compare ? await resolveBase(a.compare) : undefined;
  const failOn = parseFailOn(a["fail-on"]);
  const table = parseTable(a.table);
  const outDir = resolve(a.out ?? join("reports", "runs", `${newRunId()}-merged`));
  const output = new RunOutput(outDir);
  if (output.readResults().length > 0) throw new InputError("command line", "--out", `an empty folder for the merged run (${outDir} holds results)`);
  const runId = outDir.split("/").pop()!;
  const records = mergeRecords(shards, runId);
  copyTrialFiles(shards, records, output);
  // Evasion variants are told apart by their generated persona's family, read from the tasks the records name.
  const taskIds = [...new Set(records.map((r) => r.task))].filter((id) => catalog.has(id));
  const families = mutantFamilies(catalog.load(taskIds));
  const published = publishRun({ output, runId, records, meta: mergedMeta(shards), families, ...baseOptions(base, failOn) });
  return finish(published, records, Math.round(performance.now() - started), shownDir(outDir), a.json ?? false, table);
}

const STORE_OPTIONS = {
  store: { type: "string" },
  "max-mb": { type: "string" },
  "older-than-days": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const STORE_FLAGS: FlagHelp<typeof STORE_OPTIONS> = {
  store: ["DIR", "the result store (default reports/store under the current folder, or GATEBENCH_STORE)"],
  "max-mb": ["N", "keep at most N MB, dropping the least recently used trials (default 512)"],
  "older-than-days": ["N", "drop trials unused for N days first"],
  help: "this text",
};

export function storeHelp(): string {
  return renderHelp({
    usage: ["gatebench store gc [flags]", "npm run eval -- store gc [flags]   (in a gatebench checkout)"],
    summary:
      "Trims the result store, where finished deterministic trials are kept by fingerprint: leftovers of interrupted\nwrites, trials unused for N days, then the least recently used beyond the size cap.",
    options: STORE_OPTIONS,
    flags: STORE_FLAGS,
  });
}

/** `store gc`: leftovers, trials unused for N days, then the least recently used past the size cap. */
export async function storeMain(argv: string[]): Promise<number> {
  const { values: a, positionals } = parseCli(argv, STORE_OPTIONS, true);
  if (a.help) {
    sayOut(storeHelp());
    return 0;
  }
  if (positionals[0] !== "gc" || positionals.length > 1) throw new InputError("command line", "store", "`store gc`");
  const store = new ResultStore(storeDir(a.store, false) ?? resolve(DEFAULT_STORE_DIR));
  const before = store.size();
  const maxMb = a["max-mb"] === undefined ? DEFAULT_STORE_MAX_BYTES / (1024 * 1024) : intFlag(a["max-mb"], "--max-mb", 1);
  const days = a["older-than-days"] === undefined ? undefined : intFlag(a["older-than-days"], "--older-than-days", 1);
  const r = store.gc({ maxBytes: maxMb * 1024 * 1024, ...(days !== undefined ? { olderThanDays: days } : {}) });
  sayOut(`store ${store.dir}: ${before.trials} trials (${mb(before.bytes)}) -> ${r.kept} (${mb(r.bytes)}), ${r.removed} removed\n`);
  return 0;
}

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** The run folder as printed: relative to the cwd when it lies under it (a short line), else as it is. */
export function shownDir(dir: string, cwd = process.cwd()): string {
  const rel = relative(cwd, dir);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : dir;
}

/** `gatebench eval ...`; `merge ...` and `store ...` as its first word run those commands (npm run eval -- merge ...). */
export async function evalMain(argv: string[]): Promise<number> {
  if (argv[0] === "merge") return mergeMain(argv.slice(1));
  if (argv[0] === "store") return storeMain(argv.slice(1));
  checkBareRecord(argv);
  const { values: a } = parseCli(argv, OPTIONS);
  if (a.help) {
    sayOut(evalHelp());
    return 0;
  }
  if (a.record !== undefined && a.replay !== undefined) throw new InputError("command line", "--replay", "either --record DIR or --replay DIR, not both");
  if (a.record !== undefined && a["record-personas"])
    throw new InputError("command line", "--record-personas", "either --record DIR or --record-personas, not both");
  // A replay's matrix defaults to the recorded one.
  const cassette = a.replay !== undefined ? Cassette.load(resolve(a.replay)) : undefined;
  const recorded = cassette?.manifest.matrix;
  const catalog = new TaskCatalog(a["tasks-dir"] ?? []);
  const tasks = catalog.load(catalog.select(a.tasks ?? recorded?.tasks.join(",")));
  if (tasks.length === 0) throw new InputError(a["tasks-dir"]?.join(", ") ?? "tasks/", "(folder)", "at least one task");
  // A replay takes over only built-in configurations from the cassette; anything that loads code must be named with --gates.
  const gateSpec = a.gates ?? (cassette ? recordedGates(cassette) : undefined);
  const parsed = parseAgentSelectors(a.agents ?? cassette?.models.join(","));
  const gates = pairGates(selectGateConfigs(gateSpec), parsed, gateSpec !== undefined);
  checkPersonasExist(parsed, tasks);
  // --replay: every real model of --agents plays its recording.
  const selected = cassette ? replaySelectors(parsed, cassette) : parsed;
  const recordedApprovers = recorded?.approvers.filter((x) => x !== "-");
  const approvers = parseApproverNames(a.approvers ?? (recordedApprovers?.length ? recordedApprovers.join(",") : undefined));
  const trials = intFlag(a.trials, "--trials", recorded?.trials ?? 1);
  // --trials N alone keeps its old meaning for real models too: N attempts of every trial.
  const epochs = intFlag(a.epochs, "--epochs", a.trials !== undefined ? trials : (recorded?.epochs ?? DEFAULT_EPOCHS));
  const recordPersonas = a["record-personas"] === true;
  // Trials mostly wait on sandboxes starting and on each other's remembered steps: 4 per core keeps the cores busy.
  const concurrency = intFlag(a.concurrency, "--concurrency", recordPersonas ? 1 : Math.max(2, 4 * availableParallelism()));
  if (recordPersonas && concurrency !== 1)
    throw new InputError(
      "command line",
      "--concurrency",
      `1 with --record-personas: a recording is paired with its trial by running one at a time (got ${concurrency})`,
    );
  if (a.record !== undefined && !selected.some(selectorRecordable))
    throw new InputError("command line", "--record", "a real model in --agents (<provider>/<model>) whose requests and responses to record");
  const shard = parseShard(a.shard);
  const base = a.compare ? await resolveBase(a.compare) : undefined;
  const failOn = parseFailOn(a["fail-on"]);
  const table = parseTable(a.table);
  if (a.resume && !a.out) throw new InputError("command line", "--resume", "--out DIR naming the run to continue");
  if (a.extend && !a.resume) throw new InputError("command line", "--extend", "--resume alongside it (it extends the run being resumed)");
  if (a.store !== undefined && a["no-store"]) throw new InputError("command line", "--no-store", "either --store DIR or --no-store");
  // Every real model is checked before any trial: provider, model, key, server. One line per problem, exit 2.
  const checked = await preflightSelectors(selected);
  if (!a.json) for (const n of checked.notices) sayErr(`gatebench: notice: ${n}\n`);
  if (checked.problems.length > 0) {
    for (const p of checked.problems) sayErr(`gatebench: bad input: ${p}\n`);
    return 2;
  }
  // Every hook and extension a configuration names loads and answers in its protocol, before any trial.
  const broken = await preflightGateConfigs(gates);
  if (broken.length > 0) {
    for (const p of broken) sayErr(`gatebench: bad input: ${p}\n`);
    return 2;
  }
  // A recorded run needs every trial to play its model: nothing comes from the store.
  const dir = recordPersonas || a.record !== undefined ? undefined : storeDir(a.store, a["no-store"] === true);
  const store = dir ? new ResultStore(dir) : undefined;
  // Before any world: every trial would fail if the sandbox users could not reach what they bind.
  checkSandboxAccess();

  const outDir = resolve(a.out ?? join("reports", "runs", newRunId()));
  const recordings = recordPersonas ? new Recordings(join(outDir, "recorded")) : undefined;
  const output = new RunOutput(outDir);
  // One writer per out dir (RunOutput holds its lock); worlds of runs that are gone are swept; this run ends with its launcher.
  sweepStaleWorlds(DEFAULT_TRIALS_DIR, sayErr);
  watchLauncher();
  const previous = output.readResults();
  if (previous.length > 0 && !a.resume) throw new InputError("command line", "--out", `an empty folder, or --resume to continue the run in ${outDir}`);
  const runId = previous[0]?.run_id ?? outDir.split("/").pop()!;
  const writer =
    a.record !== undefined
      ? new CassetteWriter(resolve(a.record), {
          runId,
          matrix: { tasks: tasks.map((t) => t.task.id), gates: gates.map((g) => g.name), approvers: [...approvers], epochs, trials },
          baseUrl: process.env.GATEBENCH_BASE_URL,
        })
      : undefined;
  const agents = recordings
    ? recordings.select(selected, selectorRecordable, recordSelector)
    : writer
      ? selected.map((x) => recordSelector(x, { cassette: writer }))
      : selected;
  const whole = planTrials({ runId, tasks, gates, agents, approvers, trials, epochs });
  const runMeta = await collectRunMeta({
    tasks,
    gates,
    plannedTrialIds: whole.map((s) => s.trialId),
    ...(shard ? { shard, shardTrials: planTrials({ runId, tasks, gates, agents, approvers, trials, epochs, shard }).length } : {}),
  });

  const fingerprints = new Fingerprinter();
  const started = performance.now();
  const progress = a.json ? undefined : createProgress({ stream: process.stderr, tty: process.stderr.isTTY === true, resumed: previous.length });
  let cacheStats: CacheStats | undefined;
  let reuse: ReuseStats | undefined;
  const records = await runMatrix({
    runId,
    tasks,
    gates,
    agents,
    approvers,
    trials,
    epochs,
    concurrency,
    ...(shard ? { shard } : {}),
    output,
    resume: a.resume ?? false,
    extend: a.extend ?? false,
    ...(store ? { store } : {}),
    fingerprints,
    onReuse: (s) => {
      reuse = s;
      const lines = a.json ? [] : reuseLines(s, { verbose: a.verbose === true, ...(store ? { store: store.dir } : {}) });
      if (lines.length > 0) sayErr(`${lines.join("\n")}\n`);
      for (const d of s.disagreeing ?? [])
        sayErr(`notice: the stored result of ${d.trial_id} disagrees with its own event log (${d.fields.join(", ")}): not served, the trial runs again\n`);
    },
    cache: a["no-cache"] !== true,
    onCacheStats: (s) => {
      cacheStats = s;
    },
    onTrial: (r, done, total) => {
      progress?.trial(r, done, total);
      recordings?.finish(r);
    },
  });
  progress?.finish();
  if (recordings) sayErr(`${[`recordings: ${recordings.written.length} written to ${recordings.dir}`, ...recordings.notes].join("\n")}\n`);
  if (writer)
    sayErr(
      `${[`recording: ${writer.recorded} trials written to ${writer.dir} (replay: npm run eval -- --replay ${writer.dir})`, ...writer.notes].join("\n")}\n`,
    );
  const wallMs = Math.round(performance.now() - started);
  const sampled = agents.some(selectorSampled);
  const meta: SummaryMeta = {
    tasks: tasks.length,
    gates: gates.map((g) => g.name),
    approvers,
    trials_per_cell: trials,
    // Only runs with real models say how many epochs they ran, and what was recorded or replayed.
    ...(sampled ? { epochs } : {}),
    ...(writer ? { record: writer.dir } : {}),
    ...(cassette ? { replay: { dir: cassette.dir, fingerprint: cassette.fingerprint } } : {}),
    token_source: [...new Set(records.map((r) => r.token_source))].join(", ") || `estimated:${ESTIMATE_ENCODING}`,
    // The reference model prices the scripted agents' estimated tokens (real models: prices.yaml, per record).
    ...(agents.some((x) => !selectorSampled(x)) ? { price_reference: PRICE_REFERENCE_LABEL } : {}),
    wall_ms: wallMs,
    // What the shared world states saved (absent with --no-cache): docs/trial.md, "Shared world states".
    ...(cacheStats ? { cache: cacheStats } : {}),
    ...(reuse ? { reuse: { ...reuse, store: store ? store.dir : null } } : {}),
    ...runMeta,
    // When each task entered the suite and each gate last changed, from git: the "unseen" split (run/report/statistics/unseen.ts).
    provenance: collectProvenance(tasks, gates),
    // What code and configuration ran the matrix: merge refuses shards where it differs.
    code_fingerprints: codeFingerprints(fingerprints, whole),
  };
  if (cacheStats && !a.json) sayErr(`${cacheLines(cacheStats, records.length, a.verbose === true).join("\n")}\n`);
  const published = publishRun({ output, runId, records, meta, families: mutantFamilies(tasks), ...baseOptions(base, failOn) });
  return finish(published, records, wallMs, shownDir(outDir), a.json ?? false, table);
}

/** A bare `--record` was the persona recording; it now takes a folder. */
export function checkBareRecord(argv: readonly string[]): void {
  const i = argv.indexOf("--record");
  if (i >= 0 && (i === argv.length - 1 || argv[i + 1]!.startsWith("--")))
    throw new InputError(
      "command line",
      "--record",
      "a folder: --record DIR keeps every model request and response (replayed with --replay DIR); the old persona recording is --record-personas",
    );
}

/**
 * `--replay` without `--gates`: the gates the cassette was recorded with, when every one is a
 * built-in configuration. A hook, an extension or a configuration file loads code or files the
 * cassette names, and a cassette is anyone's: such a gate runs only when the user names it.
 */
export function recordedGates(cassette: Cassette): string {
  const gates = cassette.manifest.matrix.gates;
  gates.forEach((g, i) => {
    let kind: string;
    try {
      kind = parseGateEntry(g, { flag: "--gates" }).kind;
    } catch {
      kind = "unknown";
    }
    if (kind !== "builtin")
      throw new InputError(
        join(cassette.dir, MANIFEST_FILE),
        `matrix.gates[${i}]`,
        `a built-in gate configuration when --gates is not given (got ${JSON.stringify(g)}: a hook, extension or configuration file named by a cassette is never loaded from it; to run it, name it yourself, e.g. --gates ${JSON.stringify(g)})`,
      );
  });
  return gates.join(",");
}

/** `--replay`: every real model of --agents plays its recording; one the recording lacks is bad input. */
export function replaySelectors(selectors: readonly AgentSelector[], cassette: Cassette): AgentSelector[] {
  return selectors.map((x) => replaySelector(x, cassette));
}

runIfMain(import.meta.url, () => evalMain(process.argv.slice(2)));
