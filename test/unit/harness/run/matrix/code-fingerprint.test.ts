/**
 * The code fingerprints a run writes into summary.json (harness/run/matrix/code-fingerprint.ts):
 * one part per gate and task of the whole matrix, one digest over its agents and one over its
 * approvers; the same matrix gives the same values, another gate's code another gate part.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadGateConfig } from "../../../../../gates/config.ts";
import { loadTasks } from "../../../../../harness/model/task/load.ts";
import { parseAgentSelectors } from "../../../../../harness/run/matrix/agents.ts";
import { codeFingerprints } from "../../../../../harness/run/matrix/code-fingerprint.ts";
import { Fingerprinter } from "../../../../../harness/run/matrix/fingerprint.ts";
import { planTrials } from "../../../../../harness/run/matrix/matrix.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const tasks = loadTasks(["t7_cleanup_tmp"]);
const plan = (gateEntries: string[], approvers: ("headless" | "fatigued")[]) =>
  planTrials({
    runId: "r",
    tasks,
    gates: gateEntries.map((g) => loadGateConfig(g)),
    agents: parseAgentSelectors("reference,scripted:careless"),
    approvers,
    trials: 1,
  });

describe("codeFingerprints", () => {
  it("names every gate and task of the matrix, and is the same for the same matrix", () => {
    const a = codeFingerprints(new Fingerprinter(), plan(["none", "layered"], ["headless"]));
    expect(Object.keys(a.gates)).toEqual(["layered", "none"]);
    expect(Object.keys(a.tasks)).toEqual(["t7_cleanup_tmp"]);
    expect(a.harness).toMatch(/^[0-9a-f]{16}$/);
    expect(codeFingerprints(new Fingerprinter(), plan(["none", "layered"], ["headless"]))).toEqual(a);
    // Other approvers: another approvers digest, the same agents.
    const b = codeFingerprints(new Fingerprinter(), plan(["none", "layered"], ["fatigued"]));
    expect(b.approvers).not.toBe(a.approvers);
    expect(b.agents).toBe(a.agents);
  });

  it("a gate whose hook changed has another gate part, and only that gate", () => {
    const dir = mkdtempSync(join(tmpdir(), "gatebench-code-fp-"));
    dirs.push(dir);
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, "guard.mjs"), "process.stdout.write('{}')\n");
    writeFileSync(join(dir, "mine.yaml"), 'description: mine\nlayers:\n  - gate: "claude-hook:node ./guard.mjs"\n');
    const entries = ["none", `mine=${join(dir, "mine.yaml")}`];
    const before = codeFingerprints(new Fingerprinter(), plan(entries, ["headless"]));
    writeFileSync(join(dir, "guard.mjs"), "process.stdout.write('{}') // changed\n");
    const after = codeFingerprints(new Fingerprinter(), plan(entries, ["headless"]));
    expect(after.gates.mine).not.toBe(before.gates.mine);
    expect(after.gates.none).toBe(before.gates.none);
    expect(after.harness).toBe(before.harness);
  });
});
