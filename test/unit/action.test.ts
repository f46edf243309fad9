/**
 * action.yml, the composite GitHub Action other repositories `uses:`: it passes GitHub's own
 * action parser, offers the inputs a caller needs, installs the sandbox's prerequisites before
 * gatebench and runs eval with them, hands every input to the shell through env: (never spliced
 * into the script), and uploads the run's report.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { actionSchemaErrors } from "../support/workflow.ts";

const text = readFileSync(new URL("../../action.yml", import.meta.url), "utf8");
type Step = { uses?: string; run?: string; shell?: string; env?: Record<string, string>; with?: Record<string, string>; if?: string; id?: string };
const action = parse(text) as {
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, unknown>;
  runs: { using: string; steps: Step[] };
};
const steps = action.runs.steps;

describe("action.yml", () => {
  it("passes GitHub's action parser (and the parser catches a broken one)", () => {
    expect(actionSchemaErrors(text)).toEqual([]);
    expect(actionSchemaErrors(text.replace("using: composite", "using: compost"))).not.toEqual([]);
  });

  it("takes gates, tasks-dir, agents, approvers, shard/total, compare and fail-on, each described", () => {
    for (const i of ["gates", "tasks-dir", "tasks", "agents", "approvers", "shard", "total", "compare", "fail-on", "version"]) {
      expect(action.inputs[i], i).toBeDefined();
      expect(action.inputs[i]!.description.length, i).toBeGreaterThan(10);
    }
    expect(Object.keys(action.outputs)).toEqual(expect.arrayContaining(["exit-code", "report", "summary"]));
    expect(action.runs.using).toBe("composite");
  });

  it("installs bubblewrap and rsync with apt and opens user namespaces before installing and running gatebench", () => {
    const at = (re: RegExp) => steps.findIndex((s) => re.test(s.run ?? ""));
    const apt = at(/apt-get install -y bubblewrap rsync/);
    const sysctl = at(/sysctl -w kernel\.apparmor_restrict_unprivileged_userns=0/);
    const install = at(/npm (ci|install)/);
    const evaluate = at(/"\$GATEBENCH_BIN" "\$\{args\[@\]\}"/);
    expect(apt).toBeGreaterThanOrEqual(0);
    expect(sysctl).toBeGreaterThanOrEqual(0);
    expect(install).toBeGreaterThan(Math.max(apt, sysctl));
    expect(evaluate).toBeGreaterThan(install);
    const run = steps[evaluate]!.run!;
    for (const flag of ["--gates", "--tasks-dir", "--agents", "--approvers", "--shard", "--compare", "--fail-on", "--out"]) expect(run, flag).toContain(flag);
    expect(steps.every((s) => s.uses !== undefined || s.shell === "bash")).toBe(true);
  });

  it("never splices an input into a script: every ${{ }} of a run step's text is gone into env:", () => {
    for (const s of steps.filter((x) => x.run)) expect(s.run, s.run).not.toMatch(/\$\{\{/);
    const evalStep = steps.find((s) => s.id === "eval")!;
    expect(Object.values(evalStep.env!)).toEqual(expect.arrayContaining(["${{ inputs.gates }}", "${{ inputs.tasks-dir }}", "${{ inputs.compare }}"]));
  });

  it("uploads the run folder (report.html, summary.md, summary.json) as an artifact", () => {
    const upload = steps.find((s) => s.uses?.startsWith("actions/upload-artifact"))!;
    expect(upload.with!.path).toBe("${{ inputs.out }}/");
    expect((action.outputs.report as { value: string }).value).toContain("steps.eval.outputs.report");
  });
});
