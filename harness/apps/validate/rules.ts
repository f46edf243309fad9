/**
 * Task validation (`npm run validate`, tasks/README.md): a task is valid only when
 *  - nop_fails: the nop agent fails the hidden test;
 *  - reference_passes: the reference passes it with no wrongful effect;
 *  - persona:<name>: a persona marked harmful causes a wrongful effect with no gate, and a
 *    harmless one causes none;
 *  - reference_deterministic: two runs of the reference give the same effects;
 *  - preserve_holds (tasks with `preserve:`): every item that must survive is there in the
 *    world the nop agent leaves (the untouched world), so an entry names what setup.sh built;
 *  - preserve_broken (tasks with `preserve:`): at least one harmful persona loses an item that
 *    must survive, so the entries measure the harm the task is about (a harmful persona may still
 *    harm by another wrongful effect instead: its own rule asks only for some wrongful effect);
 *  - tests_hidden: the hidden test is unreachable during the agent phase.
 * Each broken rule carries its evidence (test output, wrongful paths, differing effects).
 *
 * Beside the rules, whether the setup is deterministic: setup.sh run in two fresh worlds gives
 * the same snapshot (every path's type, content, mode and link target; the same git history).
 * It is reported, not required: a task whose setup varies (a fresh key, a commit stamped with the
 * clock) is sound for a run, but its world states can never be reused beyond the run that built
 * them, since a remembered state would differ from the one its setup makes next time.
 */
import { readRegularFile, walkWithin } from "../../sandbox/files/contained.ts";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BASELINE_GATE } from "../../../gates/config-entry.ts";
import { loadGateConfig } from "../../../gates/config.ts";
import { NO_UI_USER } from "../../trial/approvers/registry.ts";
import type { AgentSpec } from "../../trial/agent/drivers/registry.ts";
import { runTrial, type TrialResult } from "../../trial/trial.ts";
import type { LoadedTask } from "../../model/task/load.ts";
import { transcriptPersonas } from "../../model/import/task-transcripts.ts";
import { createWorld } from "../../sandbox/world/world.ts";
import type { Snapshot } from "../../sandbox/world/types.ts";
import { diffSnapshots } from "../../model/effects/diff.ts";

/** Left in every file `npm run new-task` writes; a task still carrying it is not finished. */
export const SCAFFOLD_MARKER = "TODO(gatebench-scaffold)";

function scaffoldLeftovers(task: LoadedTask): string[] {
  const files = ["task.yaml", "setup.sh", "reference.yaml", join("tests", "test.sh"), ...task.personas.map((p) => join("personas", `${p.name}.yaml`))];
  return files.filter((f) => {
    try {
      return readFileSync(join(task.dir, f), "utf8").includes(SCAFFOLD_MARKER);
    } catch {
      return false;
    }
  });
}

export interface RuleResult {
  rule: string;
  ok: boolean;
  detail: string;
  evidence?: string[];
}

/** Whether setup.sh builds the same world twice; `differences`: what differed (`<change> <path>`, at most 20). */
export interface SetupDeterminism {
  deterministic: boolean;
  differences: string[];
  /** Set when it could not be told (the setup failed in a world): why. */
  unknown?: string;
}

export interface TaskValidation {
  task: string;
  valid: boolean;
  rules: RuleResult[];
  /** Reported, not a rule (see above); absent for a task that could not be loaded. */
  setup?: SetupDeterminism;
}

/** "id (n items: a, b)" for each broken `preserve:` entry of a trial. */
function lostItems(r: TrialResult): string[] {
  return (r.record.lost_items ?? []).map(
    (l) =>
      `${l.invariant} ${l.path}: lost ${l.lost} item${l.lost === 1 ? "" : "s"} (${l.bytes} bytes)${l.note ? ` [${l.note}]` : ""}: ${l.items.slice(0, 5).join(" | ")}`,
  );
}

const tail = (s: string, n = 600) => (s.length > n ? `…${s.slice(-n)}` : s).trim();

async function trial(task: LoadedTask, agent: AgentSpec, label: string): Promise<TrialResult> {
  return runTrial({
    runId: "validate",
    trialId: `${task.task.id}.${label}`,
    task,
    agent,
    gate: loadGateConfig(BASELINE_GATE),
    approver: NO_UI_USER,
    attempt: 1,
  });
}

function harnessProblem(r: TrialResult): string | undefined {
  return r.record.outcome === "harness_error" ? `harness error: ${r.record.error ?? "unknown"}` : undefined;
}

/** Files named like the hidden tests, anywhere an agent could look, whose content matches. */
async function testsReachable(task: LoadedTask): Promise<string[]> {
  const names = readdirSync(task.testsDir);
  // Read as the task was loaded: links only inside the task folder, regular files only (sub-folders walked).
  const digests = new Set<string>();
  walkWithin(task.testsDir, { root: task.dir, what: `the folder of task ${task.task.id}` }, (e) => {
    if (e.kind === "file") digests.add(createHash("sha256").update(readRegularFile(e.real)).digest("hex"));
  });
  const world = await createWorld({ mounts: task.task.world.mounts });
  try {
    const setup = await world.runScript(task.setupPath, { timeoutMs: 60_000 });
    if (setup.exitCode !== 0) return [`setup.sh failed: ${tail(`${setup.stdout}\n${setup.stderr}`)}`];
    const nameArgs = names.map((n) => `-name '${n.replace(/'/g, "")}'`).join(" -o ");
    const probe = await world.exec(
      `ls -d /tests 2>/dev/null; find / \\( -path /proc -o -path /sys -o -path /dev \\) -prune -o -type f \\( ${nameArgs} \\) -print0 2>/dev/null | xargs -0 -r sha256sum 2>/dev/null`,
      { timeoutMs: 60_000 },
    );
    const found: string[] = [];
    for (const line of probe.stdout.split("\n")) {
      if (line === "/tests") found.push("/tests exists during the agent phase");
      const m = /^([0-9a-f]{64})\s+(.+)$/.exec(line);
      if (m && digests.has(m[1]!)) found.push(`${m[2]} has the content of a hidden test file`);
    }
    return found;
  } finally {
    await world.close();
  }
}

/** The world setup.sh builds, in a fresh world: its snapshot, or why there is none. */
async function setupSnapshot(task: LoadedTask): Promise<Snapshot | string> {
  const world = await createWorld({ mounts: task.task.world.mounts });
  try {
    const setup = await world.runScript(task.setupPath, { timeoutMs: 60_000 });
    if (setup.exitCode !== 0) return `setup.sh failed: ${tail(`${setup.stdout}\n${setup.stderr}`)}`;
    return await world.snapshot();
  } finally {
    await world.close();
  }
}

/** setup.sh run in two fresh worlds, one after the other, and their snapshots compared. */
export async function setupDeterminism(task: LoadedTask): Promise<SetupDeterminism> {
  const first = await setupSnapshot(task);
  const second = typeof first === "string" ? first : await setupSnapshot(task);
  if (typeof first === "string" || typeof second === "string")
    return { deterministic: false, differences: [], unknown: String(typeof first === "string" ? first : second) };
  const changes = diffSnapshots(first, second);
  return { deterministic: changes.length === 0, differences: changes.slice(0, 20).map((c) => `${c.kind} ${c.path}`) };
}

/** `setup`: also tell whether the setup is deterministic (two more worlds; default on). */
export async function validateTask(task: LoadedTask, opts: { setup?: boolean } = {}): Promise<TaskValidation> {
  const rules: RuleResult[] = [];
  const leftovers = scaffoldLeftovers(task);
  rules.push(
    leftovers.length
      ? { rule: "scaffold_filled", ok: false, detail: `still carries ${SCAFFOLD_MARKER}`, evidence: leftovers }
      : { rule: "scaffold_filled", ok: true, detail: "no scaffold markers" },
  );
  const replays = transcriptPersonas(task);
  const personas = [...task.personas, ...replays];
  const [nop, ref1, ref2, ...personaRuns] = await Promise.all([
    trial(task, { kind: "nop" }, "nop"),
    trial(task, { kind: "reference" }, "reference-1"),
    trial(task, { kind: "reference" }, "reference-2"),
    ...personas.map((p) => trial(task, { kind: "persona", persona: p }, `persona-${p.name}`)),
  ]);

  const nopProblem = harnessProblem(nop!);
  rules.push(
    nopProblem
      ? { rule: "nop_fails", ok: false, detail: nopProblem }
      : nop!.record.passed
        ? {
            rule: "nop_fails",
            ok: false,
            detail: "the hidden test passes on the untouched world (the nop agent passed)",
            evidence: [tail(nop!.evidence.testOutput) || "(test printed nothing)"],
          }
        : { rule: "nop_fails", ok: true, detail: "nop fails the hidden test" },
  );

  const refProblem = harnessProblem(ref1!);
  if (refProblem) rules.push({ rule: "reference_passes", ok: false, detail: refProblem });
  else if (!ref1!.record.passed)
    rules.push({
      rule: "reference_passes",
      ok: false,
      detail: "the reference fails the hidden test",
      evidence: [tail(ref1!.evidence.testOutput) || "(test printed nothing)"],
    });
  else if (ref1!.record.harmed)
    rules.push({
      rule: "reference_passes",
      ok: false,
      detail: `the reference causes ${ref1!.record.wrongful_deletions} wrongful deletions and ${ref1!.record.wrongful_modifications} wrongful modifications`,
      evidence: [...lostItems(ref1!), ...ref1!.record.wrongful_paths],
    });
  else rules.push({ rule: "reference_passes", ok: true, detail: "reference passes with no wrongful effect" });

  const same = JSON.stringify(ref1!.evidence.changes) === JSON.stringify(ref2!.evidence.changes);
  rules.push(
    same
      ? { rule: "reference_deterministic", ok: true, detail: `two reference runs give the same ${ref1!.evidence.changes.length} effects` }
      : {
          rule: "reference_deterministic",
          ok: false,
          detail: "two runs of the reference give different effects",
          evidence: [
            ...ref1!.evidence.changes.filter((c) => !ref2!.evidence.changes.includes(c)).map((c) => `run 1 only: ${c}`),
            ...ref2!.evidence.changes.filter((c) => !ref1!.evidence.changes.includes(c)).map((c) => `run 2 only: ${c}`),
          ].slice(0, 20),
        },
  );

  if (task.task.preserve.length > 0) {
    const lostAtStart = lostItems(nop!);
    rules.push(
      nopProblem
        ? { rule: "preserve_holds", ok: false, detail: nopProblem }
        : lostAtStart.length > 0
          ? {
              rule: "preserve_holds",
              ok: false,
              detail: "items that must survive are missing from the untouched world (the nop agent's)",
              evidence: lostAtStart,
            }
          : { rule: "preserve_holds", ok: true, detail: `the ${task.task.preserve.length} preserve entries hold in the untouched world` },
    );
    const broken = new Set<string>();
    personas.forEach((p, i) => {
      if (p.harmful) for (const l of personaRuns[i]!.record.lost_items ?? []) broken.add(l.invariant);
    });
    const unbroken = task.task.preserve.map((e) => e.id).filter((id) => !broken.has(id));
    rules.push(
      broken.size === 0
        ? {
            rule: "preserve_broken",
            ok: false,
            detail: "no harmful persona loses an item that must survive: the preserve entries measure nothing the personas do",
            evidence: unbroken,
          }
        : {
            rule: "preserve_broken",
            ok: true,
            detail: `harmful personas break ${[...broken].sort().join(", ")}${unbroken.length ? ` (none breaks ${unbroken.join(", ")})` : ""}`,
          },
    );
  }

  personas.forEach((p, i) => {
    const r = personaRuns[i]!;
    const rule = replays.includes(p) ? `transcript:${p.name}` : `persona:${p.name}`;
    const problem = harnessProblem(r);
    if (problem) rules.push({ rule, ok: false, detail: problem });
    else if (p.harmful && !r.record.harmed)
      rules.push({ rule, ok: false, detail: "marked harmful but causes no wrongful effect with no gate", evidence: r.evidence.changes.slice(0, 20) });
    else if (!p.harmful && r.record.harmed)
      rules.push({
        rule,
        ok: false,
        detail: "marked harmless but causes wrongful effects with no gate",
        evidence: [...lostItems(r), ...r.record.wrongful_paths],
      });
    else
      rules.push({
        rule,
        ok: true,
        detail: p.harmful
          ? `harms (${r.record.wrongful_deletions} deletions, ${r.record.wrongful_modifications} modifications${r.record.lost_items?.length ? `; breaks ${[...new Set(r.record.lost_items.map((l) => l.invariant))].join(", ")}` : ""})`
          : "harmless",
      });
  });

  const reachable = await testsReachable(task);
  rules.push(
    reachable.length
      ? { rule: "tests_hidden", ok: false, detail: "the hidden test is reachable during the agent phase", evidence: reachable }
      : { rule: "tests_hidden", ok: true, detail: "hidden test unreachable during the agent phase" },
  );

  return { task: task.task.id, valid: rules.every((r) => r.ok), rules, ...(opts.setup === false ? {} : { setup: await setupDeterminism(task) }) };
}
