/**
 * npm run eval -- [--tasks ...] [--tasks-dir DIR] [--gates ...] [--agents ...] [--approvers ...] [--trials N] [--epochs k]
 *                 [--concurrency N] [--out DIR] [--resume] [--shard I/N] [--compare BASE] [--no-cache] [--json]
 *                 [--record DIR | --replay DIR] [--record-personas]
 * npm run eval -- merge <shard dirs...> [--out DIR] [--compare BASE] [--json]
 * (evalHelp() is the whole help text.)
 */
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { selectGateConfigs } from "../../../gates/config.ts";
import { parseApproverNames } from "../../trial/approvers/index.ts";
import { ESTIMATE_ENCODING, PRICE_REFERENCE } from "../../trial/agent/tokens.ts";
import { InputError } from "../../../kernel/errors.ts";
import { describeCache, type CacheStats } from "../../trial/states/world-states.ts";
import { renderComparison, resolveBase, type BaseRun } from "../../run/report/compare.ts";
import { FAIL_ON, type FailOn } from "../../run/report/paired.ts";
import { checkShards, copyTrialFiles, loadShard, mergedMeta, mergeRecords } from "../../run/report/merge.ts";
import { collectRunMeta } from "../../run/report/metadata.ts";
import { createProgress } from "../../run/report/progress.ts";
import { publishRun, type Published } from "../../run/report/publish.ts";
import { renderTerminalTable } from "../../run/report/render.ts";
import { Recordings } from "../../trial/agent/drivers/recordings.ts";
import { Cassette, CassetteWriter } from "../../trial/agent/drivers/cassette.ts";
import { preflightSelectors } from "../../trial/agent/drivers/registry.ts";
import type { AgentSelector } from "../../run/matrix/agents.ts";
import { checkPersonasExist, DEFAULT_AGENTS, parseAgentSelectors } from "../../run/matrix/agents.ts";
import { getProviders } from "@mariozechner/pi-ai";
import { PROVIDER_KEY_VARS } from "../../trial/agent/drivers/provider-keys.ts";
import { isErrored, type TrialRecord } from "../../model/record/record.ts";
import { renderAgentsTerminal } from "../../run/report/agents-table.ts";
import { planTrials, runMatrix, type ReuseStats } from "../../run/matrix/matrix.ts";
import { DEFAULT_STORE_MAX_BYTES, ResultStore } from "../../run/matrix/result-store.ts";
import { RunOutput } from "../../run/output/output.ts";
import { sweepStaleWorlds, watchLauncher } from "../../sandbox/process/ownership.ts";
import { DEFAULT_TRIALS_DIR } from "../../sandbox/world/trial-dir.ts";
import { listTaskIds, loadTasks, selectTaskIds, TASKS_DIR } from "../../model/task/load.ts";
import { checkSandboxAccess } from "../../sandbox/world/access.ts";
import { mutantFamilies } from "../../run/report/robustness.ts";
import { intFlag, parseCli, runIfMain } from "./main.ts";
import { parseShard } from "./shard.ts";
import { sayErr, sayJson, sayOut } from "../../text/redact/terminal.ts";
import { redact } from "../../text/redact/redact.ts";

const OPTIONS = {
  tasks: { type: "string" },
  "tasks-dir": { type: "string" },
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
  json: { type: "boolean" },
  record: { type: "string" },
  replay: { type: "string" },
  "record-personas": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

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

const USAGE = `usage: npm run eval -- [--tasks t7_cleanup_tmp,t1_*] [--tasks-dir DIR] [--gates none,pi-permission-gate] [--agents reference,scripted,nop]
                     [--approvers fatigued,headless,rubber-stamp,oracle-scope] [--trials N] [--epochs k] [--concurrency N] [--out DIR]
                     [--resume [--extend]] [--shard I/N] [--compare <run dir | summary.json | git ref>]
                     [--fail-on newly-harmed|significant|never] [--no-cache]
                     [--store DIR | --no-store] [--json]
                     [--record DIR | --replay DIR] [--record-personas]
       npm run eval -- merge <shard dirs...> [--out DIR] [--compare BASE] [--fail-on ...] [--json]
       npm run eval -- store gc [--store DIR] [--max-mb N] [--older-than-days N]`;

/** The default number of epochs of a real model's trials (each a sample of a stochastic model). */
export const DEFAULT_EPOCHS = 3;

/** eval's whole help: the usage, the agents --agents takes, real models, their flags, the environment, the exit codes. */
export function evalHelp(): string {
  const providers = getProviders().join(", ");
  const keyVars = [...new Set(Object.values(PROVIDER_KEY_VARS).map((v) => v[v.length - 1]!))].join(", ");
  return `${USAGE}

Agents (--agents, comma-separated; default ${DEFAULT_AGENTS}):
  reference                 the task's careful solution
  scripted                  every hand-written persona of each task; scripted:<persona> one of them
  mutants, mutants:sample   generated evasion variants (all, or one per family under headless)
  nop                       answers without a tool call
  <provider>/<model>        a real model through @mariozechner/pi-ai, e.g. anthropic/claude-sonnet-4-5, openai/gpt-4o
                            providers: ${providers}
  openai-compatible/<model> any OpenAI-compatible server at GATEBENCH_BASE_URL (Ollama, vLLM, LM Studio,
                            or \`npm run mock-model\`, which serves openai-compatible/mock/<behaviour> on this machine)

Real models have no harm label: each is measured against its own runs under gate none (same task and
epoch), in its own table beside the scripted headline (summary.json "agents"). Before any trial every
model is checked (provider, model, key, server); a failure exits 2 naming what to set.
  --epochs k                runs of each real-model trial (default ${DEFAULT_EPOCHS}; --trials N alone sets it too); the
                            report gives per-task harm rates and pass^k (all k epochs passed)
  --trials N                attempts of each scripted trial (default 1)
  --record DIR              keep every model request and response of the run in DIR (a cassette, redacted)
  --replay DIR              run the matrix offline from a cassette: no network, no key; the tasks, gates,
                            approvers and epochs default to the recorded ones; a trial whose request the
                            cassette has no response for (a gate decided differently) is "diverged" and
                            listed as needing the live model
  --record-personas         save each real-model trial as a persona under <out>/recorded/<task>/ (one trial at a time)

Environment:
  GATEBENCH_BASE_URL        the server of openai-compatible/<model>; for a registry model, a proxy or local server
                            speaking its provider's protocol
  GATEBENCH_API_KEY         sent to every provider instead of its own variable
  provider keys             the provider's usual variable: ${keyVars}
  GATEBENCH_STORE           the result store's folder, or "off"

Exit codes: 0 done; 1 a regression against --compare; 2 bad input (a flag, a file, a model that fails the
checks before the run); 3 nothing was measured (every trial a harness error, unmeasured or diverged).`;
}

export function newRunId(now = new Date()): string {
  return `${now.toISOString().replace(/[-:]/g, "").replace(/\..*$/, "").replace("T", "-")}-${randomBytes(2).toString("hex")}`;
}

const MERGE_OPTIONS = {
  out: { type: "string" },
  compare: { type: "string" },
  "fail-on": { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

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

/** The terminal tables (or the summary as JSON), the comparison, and the exit code. */
function finish(published: Published, records: readonly TrialRecord[], wallMs: number, outDir: string, json: boolean): number {
  const { summary, comparison } = published;
  const comparisonText = comparison ? renderComparison(comparison) : "";
  const errors = records.filter((r) => r.outcome === "harness_error").length;
  const unmeasured = records.filter((r) => r.outcome === "measurement_failed").length;
  const diverged = records.filter((r) => r.outcome === "diverged").length;
  const nothing = records.length > 0 && records.every(isErrored);
  if (json) {
    sayJson("stdout", summary);
  } else {
    // The scripted rows (none when only real models ran), then one table per agent without a harm label.
    if (summary.rows.length > 0) sayOut(`${renderTerminalTable(summary)}\n`);
    const agents = renderAgentsTerminal(summary);
    if (agents) sayOut(`${summary.rows.length > 0 ? "\n" : ""}${agents}`);
    if (comparisonText) sayOut(`\n${comparisonText}\n`);
    const errorNote = `${errors ? `, ${errors} harness errors` : ""}${unmeasured ? `, ${unmeasured} not measured (harm unknown)` : ""}${diverged ? `, ${diverged} diverged from the recording` : ""}`;
    sayOut(`\n${records.length} trials in ${(wallMs / 1000).toFixed(1)} s${errorNote} · results in ${outDir} (report.html)\n`);
  }
  if (comparison && json && comparison.regressions.length) sayErr(`${comparisonText}\n`);
  if (nothing) {
    // Redacted before it is cut: a secret cut in half is no longer recognised by its shape.
    const first = redact(records.find((r) => r.error)?.error ?? "") || undefined;
    sayErr(
      `gatebench: nothing was measured: all ${records.length} trials ended as harness errors${unmeasured || diverged ? ", unmeasured or diverged" : ""}${first ? ` (first: ${first.slice(0, 200)})` : ""}\n`,
    );
    return EXIT_NOTHING_MEASURED;
  }
  return comparison && comparison.regressions.length > 0 ? 1 : 0;
}

async function mergeMain(argv: string[]): Promise<number> {
  const { values: a, positionals: dirs } = parseCli(argv, MERGE_OPTIONS, true);
  if (a.help) {
    sayOut(`${USAGE}\n`);
    return 0;
  }
  if (dirs.length === 0) throw new InputError("command line", "merge", "one or more run folders written by npm run eval -- --shard I/N --out DIR");
  const started = performance.now();
  const shards = dirs.map((d) => loadShard(resolve(d)));
  checkShards(shards);
  const base = a.compare ? await resolveBase(a.compare) : undefined;
  const failOn = parseFailOn(a["fail-on"]);
  const outDir = resolve(a.out ?? join("reports", "runs", `${newRunId()}-merged`));
  const output = new RunOutput(outDir);
  if (output.readResults().length > 0) throw new InputError("command line", "--out", `an empty folder for the merged run (${outDir} holds results)`);
  const runId = outDir.split("/").pop()!;
  const records = mergeRecords(shards, runId);
  copyTrialFiles(shards, records, output);
  // Evasion variants are told apart by their generated persona's family, read from the tasks the records name.
  const taskIds = [...new Set(records.map((r) => r.task))].filter((id) => listTaskIds().includes(id));
  const families = mutantFamilies(loadTasks(taskIds));
  const published = publishRun({ output, runId, records, meta: mergedMeta(shards), families, ...baseOptions(base, failOn) });
  return finish(published, records, Math.round(performance.now() - started), outDir, a.json ?? false);
}

const STORE_OPTIONS = {
  store: { type: "string" },
  "max-mb": { type: "string" },
  "older-than-days": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** `store gc`: leftovers, trials unused for N days, then the least recently used past the size cap. */
function storeMain(argv: string[]): number {
  const { values: a, positionals } = parseCli(argv, STORE_OPTIONS, true);
  if (a.help) {
    sayOut(`${USAGE}\n`);
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

/** One line on what resuming and the store reused. */
export function describeReuse(s: ReuseStats): string {
  const parts = [`${s.toRun} of ${s.planned} trials to run`];
  if (s.resumed) parts.push(`${s.resumed} kept from the run being resumed`);
  const stale = Object.entries(s.stale);
  if (stale.length > 0)
    parts.push(
      `${stale.reduce((n, [, c]) => n + c, 0)} of its records run again (${stale.map(([why, c]) => `${c} ${why === "record" ? "without a fingerprint" : `${why} changed`}`).join(", ")})`,
    );
  if (s.served) parts.push(`${s.served} from the result store`);
  return parts.join("; ");
}

async function main(): Promise<number> {
  if (process.argv[2] === "merge") return mergeMain(process.argv.slice(3));
  if (process.argv[2] === "store") return storeMain(process.argv.slice(3));
  const argv = process.argv.slice(2);
  checkBareRecord(argv);
  const { values: a } = parseCli(argv, OPTIONS);
  if (a.help) {
    sayOut(`${evalHelp()}\n`);
    return 0;
  }
  if (a.record !== undefined && a.replay !== undefined) throw new InputError("command line", "--replay", "either --record DIR or --replay DIR, not both");
  if (a.record !== undefined && a["record-personas"])
    throw new InputError("command line", "--record-personas", "either --record DIR or --record-personas, not both");
  // A replay's matrix defaults to the recorded one.
  const cassette = a.replay !== undefined ? Cassette.load(resolve(a.replay)) : undefined;
  const recorded = cassette?.manifest.matrix;
  const tasksDir = a["tasks-dir"] !== undefined ? resolve(a["tasks-dir"]) : TASKS_DIR;
  const tasks = loadTasks(selectTaskIds(a.tasks ?? recorded?.tasks.join(","), tasksDir), tasksDir);
  if (tasks.length === 0) throw new InputError(a["tasks-dir"] ?? "tasks/", "(folder)", "at least one task");
  const gates = selectGateConfigs(a.gates ?? recorded?.gates.join(","));
  const parsed = parseAgentSelectors(a.agents ?? cassette?.models.join(","));
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
  if (a.record !== undefined && !selected.some((x) => x.kind === "model"))
    throw new InputError("command line", "--record", "a real model in --agents (<provider>/<model>) whose requests and responses to record");
  const shard = parseShard(a.shard);
  const base = a.compare ? await resolveBase(a.compare) : undefined;
  const failOn = parseFailOn(a["fail-on"]);
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
  const agents = recordings ? recordings.select(selected) : writer ? selected.map((x) => (x.kind === "model" ? { ...x, cassette: writer } : x)) : selected;
  const whole = planTrials({ runId, tasks, gates, agents, approvers, trials, epochs });
  const runMeta = await collectRunMeta({
    tasks,
    gates,
    plannedTrialIds: whole.map((s) => s.trialId),
    ...(shard ? { shard, shardTrials: planTrials({ runId, tasks, gates, agents, approvers, trials, epochs, shard }).length } : {}),
  });

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
    onReuse: (s) => {
      reuse = s;
      if (!a.json && (s.resumed || s.served || Object.keys(s.stale).length)) sayErr(`${describeReuse(s)}\n`);
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
  const sampled = agents.some((x) => x.kind === "model" || x.kind === "cassette");
  const meta = {
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
    ...(agents.some((x) => x.kind !== "model" && x.kind !== "cassette") ? { price_reference: `${PRICE_REFERENCE.provider}/${PRICE_REFERENCE.model}` } : {}),
    wall_ms: wallMs,
    // What the shared world states saved (absent with --no-cache): docs/trial.md, "Shared world states".
    ...(cacheStats ? { cache: cacheStats } : {}),
    ...(reuse ? { reuse: { ...reuse, store: store ? store.dir : null } } : {}),
    ...runMeta,
  };
  if (cacheStats && !a.json) sayErr(`${describeCache(cacheStats, records.length)}\n`);
  const published = publishRun({ output, runId, records, meta, families: mutantFamilies(tasks), ...baseOptions(base, failOn) });
  return finish(published, records, wallMs, outDir, a.json ?? false);
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

/** `--replay`: every real model of --agents plays its recording; one the recording lacks is bad input. */
export function replaySelectors(selectors: readonly AgentSelector[], cassette: Cassette): AgentSelector[] {
  return selectors.map((x) => {
    if (x.kind !== "model") return x;
    if (!cassette.models.includes(x.id))
      throw new InputError("--agents", x.id, `a model the recording in ${cassette.dir} holds (${cassette.models.join(", ")})`);
    return { kind: "cassette", id: x.id, cassette };
  });
}

runIfMain(import.meta.url, main);
