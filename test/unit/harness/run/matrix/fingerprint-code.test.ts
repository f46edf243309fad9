/**
 * The harness part of a trial's fingerprint covers the code a trial runs, not the whole tree:
 * the module graph from the trial's entry points (the gate layers' own modules left to the gate
 * part), the files the harness reads or runs by path, and the lockfile. A change to a report,
 * CLI or app file serves every stored trial; a change to the code a trial runs runs them all
 * again. Edits are made in a copy of the tree, never in the repository.
 */
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadGateConfig } from "../../../../../gates/config.ts";
import { GATE_MODULES } from "../../../../../gates/registry.ts";
import { Fingerprinter, REPO_ROOT, TRIAL_ENTRIES, trialCodeFiles, VIEW_DIRS } from "../../../../../harness/run/matrix/fingerprint.ts";
import { planTrials } from "../../../../../harness/run/matrix/matrix.ts";
import { loadTasks } from "../../../../../harness/model/task/load.ts";

const rel = (f: string, root = REPO_ROOT) => relative(root, f);
const code = trialCodeFiles().map((f) => rel(f));

describe("trialCodeFiles", () => {
  it("holds the trial's entry points, its world and in-sandbox code, the files read by path and the lockfile", () => {
    for (const f of [
      ...TRIAL_ENTRIES,
      "harness/trial/trial.ts",
      "harness/trial/agent/drivers/scripted.ts",
      "harness/trial/approvers/fatigued.ts",
      "harness/trial/states/world-states.ts",
      "harness/sandbox/world/world.ts",
      "harness/sandbox/world/inside/agent.cjs",
      "harness/sandbox/world/inside/measurer-main.cjs",
      "harness/sandbox/world/inside/git-history.ts",
      "harness/sandbox/world/spawner-process.cjs",
      "harness/trial/agent/prices.yaml",
      "harness/run/matrix/fingerprint.ts",
      "gates/stack.ts",
      "kernel/yaml.ts",
      "package-lock.json",
    ])
      expect(code, f).toContain(f);
  });

  it("holds no report, CLI or app file, and no gate layer's own module", () => {
    expect(code.filter((f) => VIEW_DIRS.some((d) => f.startsWith(`${d}/`)))).toEqual([]);
    const layers = Object.values(GATE_MODULES)
      .flat()
      .map((m) => rel(m));
    expect(layers.length).toBeGreaterThan(5);
    expect(code.filter((f) => layers.includes(f))).toEqual([]);
    expect(code).not.toContain("gates/shell/analyze.ts");
  });

  it("holds every module `eval` hands to the trials (its imports outside the reports and the apps)", () => {
    const evalSource = readFileSync(join(REPO_ROOT, "harness/apps/cli/eval.ts"), "utf8");
    const imported = [...evalSource.matchAll(/^import (?!type )[^;]*? from "(\.[^"]+)";$/gms)].map((m) => rel(join(REPO_ROOT, "harness/apps/cli", m[1]!)));
    // checks made before any trial (they refuse a run, they change no record), and the code fingerprints of summary.json (read by merge, never by a trial)
    const beforeRun = ["harness/sandbox/world/access.ts", "harness/trial/gate-preflight.ts", "harness/run/matrix/code-fingerprint.ts"];
    const trialSide = imported.filter((f) => !VIEW_DIRS.some((d) => f.startsWith(`${d}/`)) && !beforeRun.includes(f));
    expect(trialSide.length).toBeGreaterThan(8);
    expect(trialSide.filter((f) => !code.includes(f))).toEqual([]);
  });

  /**
   * A module that finds a file by its own location, or loads one by a name it computes, reads
   * something no import names (an import of a literal path, dynamic or not, is in the module
   * graph). Each is listed here with where what it reaches is covered, so a new one fails this
   * test until it is accounted for.
   */
  it("every file reached by path from the trial's code is in the fingerprint, or in another part of it", () => {
    const byPath: Record<string, { reaches: string[]; coveredBy: "harness" | "task" | "gate" | "lockfile" | "nothing" }> = {
      "harness/sandbox/world/helper-bundle.ts": {
        reaches: ["harness/sandbox/world/inside/agent.cjs", "harness/sandbox/world/inside/measurer-main.cjs"],
        coveredBy: "harness",
      },
      "harness/sandbox/world/spawner.ts": { reaches: ["harness/sandbox/world/spawner-process.cjs"], coveredBy: "harness" },
      "harness/trial/agent/prices.ts": { reaches: ["harness/trial/agent/prices.yaml"], coveredBy: "harness" },
      "harness/trial/invariants.ts": { reaches: ["harness/sandbox/world/inside/preserve-probe.py"], coveredBy: "harness" },
      "harness/model/task/load.ts": { reaches: ["tasks/"], coveredBy: "task" },
      "gates/config-entry.ts": { reaches: ["gates/configs/"], coveredBy: "gate" },
      "gates/registry.ts": { reaches: ["gates/project-trust/index.ts"], coveredBy: "gate" },
      "gates/types.ts": { reaches: [], coveredBy: "nothing" }, // moduleBeside: a path, nothing read
      "kernel/package-root.ts": { reaches: ["node_modules/"], coveredBy: "lockfile" },
      // Pi's loader and babel, found in the installed packages; the extension file itself is a layer's source (the gate part)
      "gates/pi-extension/load-extension.ts": { reaches: ["node_modules/"], coveredBy: "lockfile" },
      "gates/pi-extension/transpile.ts": { reaches: ["node_modules/"], coveredBy: "lockfile" },
    };
    const dynamic = /import\.meta|__dirname|__filename|createRequire|new Worker|\bimport\(\s*[^"'\s]|\brequire\(\s*[^"'\s]/;
    const found = code.filter(
      (f) => /\.[cm]?[jt]s$/.test(f) && f !== "harness/run/matrix/fingerprint.ts" && dynamic.test(readFileSync(join(REPO_ROOT, f), "utf8")),
    );
    expect(found.sort()).toEqual(Object.keys(byPath).sort());
    for (const [from, { reaches, coveredBy }] of Object.entries(byPath)) {
      if (coveredBy === "harness") for (const f of reaches) expect(code, `${from} -> ${f}`).toContain(f);
      if (coveredBy === "gate")
        for (const f of reaches.filter((r) => r.endsWith(".ts")))
          expect(
            Object.values(GATE_MODULES)
              .flat()
              .map((m) => rel(m)),
          ).toContain(f);
    }
  });
});

describe("which stored trials a change serves", () => {
  /** A copy of the code the fingerprint reads (harness/, kernel/, gates/, the lockfile). */
  const root = mkdtempSync(join(tmpdir(), "gatebench-fp-code-"));
  for (const d of ["harness", "kernel", "gates", "package-lock.json"]) cpSync(join(REPO_ROOT, d), join(root, d), { recursive: true });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const specs = planTrials({
    runId: "r",
    tasks: loadTasks(["t7_cleanup_tmp"]),
    gates: ["none", "shell-ast", "layered"].map((g) => loadGateConfig(g)),
    agents: [{ kind: "reference" }, { kind: "scripted" }],
    approvers: ["headless"],
    trials: 1,
  });
  const fingerprints = (at: string) => {
    const f = new Fingerprinter(at);
    return specs.map((s) => f.of(s, s.trialId).trial);
  };
  const stored = fingerprints(root);
  /** How many trials the result store serves after `files` of the copy change (then put back). */
  function servedAfter(files: readonly string[]): number {
    const before = files.map((f) => readFileSync(join(root, f)));
    try {
      for (const f of files) appendFileSync(join(root, f), f.endsWith(".ts") || f.endsWith(".cjs") ? "\n// changed\n" : "\n");
      return fingerprints(root).filter((fp, i) => fp === stored[i]).length;
    } finally {
      files.forEach((f, i) => writeFileSync(join(root, f), before[i]!));
    }
  }

  it("the copy makes the repository's own fingerprints (paths are relative to the root)", () => {
    expect(specs.length).toBeGreaterThan(4);
    expect(stored).toEqual(fingerprints(REPO_ROOT));
    expect(servedAfter([])).toBe(specs.length);
  });

  it("a change to a report, a CLI help text, the mock model server or any app file: every trial served", () => {
    expect(servedAfter(["harness/run/report/views/html.ts"])).toBe(specs.length);
    expect(
      servedAfter([
        "harness/apps/cli/help.ts",
        "harness/apps/mock-model/server.ts",
        "harness/apps/cli/starter/gatebench/gates/my-stack.yaml",
        "harness/run/report/statistics/robustness.ts",
      ]),
    ).toBe(specs.length);
  });

  it.each([
    ["the trial's phases", "harness/trial/trial.ts"],
    ["a simulated user", "harness/trial/approvers/fatigued.ts"],
    ["the world", "harness/sandbox/world/world.ts"],
    ["the in-sandbox helper", "harness/sandbox/world/inside/exec.cjs"],
    ["a module the measurer bundles from TypeScript", "harness/sandbox/world/inside/git-history.ts"],
    ["the spawner's script", "harness/sandbox/world/spawner-process.cjs"],
    ["the price table", "harness/trial/agent/prices.yaml"],
    ["the gate stack", "gates/stack.ts"],
    ["the kernel", "kernel/digest.ts"],
    ["the lockfile", "package-lock.json"],
  ])("a change to %s (%s): no trial served", (_what, file) => {
    expect(servedAfter([file])).toBe(0);
  });
});
