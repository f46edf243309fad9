/**
 * gatebench eval [--tasks ...] [--tasks-dir DIR]... [--gates ...] [--agents ...] [--approvers ...] [--trials N] [--epochs k]
 *                [--concurrency N] [--out DIR] [--resume] [--shard I/N] [--compare BASE] [--no-cache] [--table headline|full] [--json]
 *                [--record DIR | --replay DIR] [--record-personas] [--verbose]
 * (in a checkout: npm run eval -- ...). `merge ...` and `store ...` as the first word dispatch to
 * those commands (merge.ts, store.ts); how a run ends is run-end.ts.
 */
import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";
import { selectGateConfigs } from "../../../gates/config.ts";
import { parseGateEntry } from "../../../gates/config-entry.ts";
import { parseApproverNames } from "../../trial/approvers/index.ts";
import { ESTIMATE_ENCODING } from "../../trial/agent/tokens.ts";
import { PRICE_REFERENCE_LABEL } from "../../trial/agent/price-reference.ts";
import { InputError } from "../../../kernel/errors.ts";
import type { CacheStats } from "../../trial/states/world-states.ts";
import { resolveBase } from "../../run/report/statistics/compare.ts";
import { collectRunMeta } from "../../run/report/meta/metadata.ts";
import type { SummaryMeta } from "../../run/report/meta/run-meta.ts";
import { createProgress } from "../../run/report/views/progress.ts";
import { publishRun } from "../../run/report/publishing/publish.ts";
import { Recordings } from "../../trial/agent/drivers/recordings.ts";
import { Cassette, CassetteWriter, MANIFEST_FILE } from "../../trial/agent/drivers/cassette.ts";
import { preflightSelectors, recordSelector, replaySelector, selectorRecordable, selectorSampled } from "../../trial/agent/drivers/registry.ts";
import { preflightGateConfigs } from "../../trial/gate-preflight.ts";
import { type AgentSelector, checkPersonasExist, pairGates, parseAgentSelectors } from "../../run/matrix/agents.ts";
import { planTrials, runMatrix, type ReuseStats } from "../../run/matrix/matrix.ts";
import { collectProvenance } from "../../run/report/meta/provenance.ts";
import { ResultStore } from "../../run/matrix/result-store.ts";
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
import { mergeMain } from "./merge.ts";
import { baseOptions, finish, newRunId, parseFailOn, parseTable, shownDir } from "./run-end.ts";
import { storeDir, storeMain } from "./store.ts";
import { sayErr, sayOut } from "../../text/redact/terminal.ts";

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
