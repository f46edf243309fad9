/**
 * publishRun (harness/run/report/publishing/publish.ts): summary.json, summary.md and report.html from the
 * records and the run folder's event logs, and the headline table appended to the GitHub
 * step summary when one is set. What is rendered is rendered from redacted copies, before any
 * HTML escaping, and the records passed in are left as they were.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PR_COMMENT_MARKER } from "../../../../../../harness/run/report/views/markdown.ts";
import { compareWithBase, publishRun } from "../../../../../../harness/run/report/publishing/publish.ts";
import { summarize } from "../../../../../../harness/run/report/statistics/summary.ts";
import { RunOutput } from "../../../../../../harness/run/output/output.ts";
import { trialRecord } from "../../../../../support/report-fixtures.ts";

function run() {
  const dir = mkdtempSync(join(tmpdir(), "gatebench-publish-"));
  const output = new RunOutput(dir);
  const records = [
    trialRecord({ trial_id: "a", gate: "none", harmed: true }),
    trialRecord({ trial_id: "b", gate: "layered", approver: "fatigued", blocked: 1 }),
  ];
  writeFileSync(
    join(dir, "trials", "b.jsonl"),
    `${JSON.stringify({ t: 1, type: "hidden_test", exit: 0, timed_out: false, tampered: false, output: "published-log-line" })}\n`,
  );
  return { dir, output, records };
}

describe("publishRun", () => {
  it("writes summary.json, summary.md (marker first) and report.html with the trials' logs", () => {
    const { dir, output, records } = run();
    const p = publishRun({ output, runId: "r", records, meta: { fingerprint: "f" }, stepSummaryFile: undefined });
    expect(JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")).meta.fingerprint).toBe("f");
    expect(readFileSync(join(dir, "summary.md"), "utf8").startsWith(PR_COMMENT_MARKER)).toBe(true);
    const html = readFileSync(join(dir, "report.html"), "utf8");
    expect(html).toContain("published-log-line");
    expect(html).toContain("no event log for this trial");
    expect(p.summary.rows.map((r) => r.gate)).toEqual(["none", "layered"]);
  });

  it("appends the headline table (not the full table) to the step summary file", () => {
    const { output, records } = run();
    const step = join(mkdtempSync(join(tmpdir(), "gatebench-step-")), "step.md");
    writeFileSync(step, "earlier step\n");
    publishRun({ output, runId: "r", records, meta: {}, stepSummaryFile: step });
    const text = readFileSync(step, "utf8");
    expect(text.startsWith("earlier step\n")).toBe(true);
    expect(text).toMatch(/\| gate \| harm prevented \[95% CI\] \|/);
    expect(text).not.toContain("<details>");
  });

  it("renders report.html from redacted records, before escaping, and leaves the records as they were", () => {
    const { dir, output } = run();
    // HTML escaping turns the quotes into &#39;, which no text pass over the page could read as a mysql password.
    const error = "hidden_test: mysql -u root -p'Hunter 2x' shop: access denied";
    const records = [trialRecord({ trial_id: "rt-sk-learn-cache.reference.none.-.1", task: "rt-sk-learn-cache", gate: "none", error })];
    publishRun({ output, runId: "r", records, meta: {}, stepSummaryFile: undefined });
    const html = readFileSync(join(dir, "report.html"), "utf8");
    expect(html).not.toContain("Hunter 2x");
    expect(html).toContain("-p&#39;[REDACTED]&#39;");
    expect(html).toContain('data-trial="rt-sk-learn-cache.reference.none.-.1"');
    expect(records[0]!.error).toBe(error);
  });
});

describe("compareWithBase and real models", () => {
  it("a real model's trials never enter the paired verdicts of the scripted rows", () => {
    const model = (id: string, over: Parameters<typeof trialRecord>[0]) =>
      trialRecord({ trial_id: id, agent: "openai-compatible/m", agent_harmful: null, gate: "layered", approver: "fatigued", ...over });
    const base = [trialRecord({ trial_id: "s", gate: "layered", approver: "fatigued", harmed: false }), model("m", { passed: true, harmed: false })];
    const now = [trialRecord({ trial_id: "s", gate: "layered", approver: "fatigued", harmed: false }), model("m", { passed: false, harmed: true })];
    const c = compareWithBase({ base: summarize("b", base), baseRecords: base, records: now, runId: "n", meta: {} }, summarize("n", now));
    expect(c?.paired?.common).toBe(1);
    expect(c?.paired?.rows.flatMap((r) => r.flips)).toEqual([]);
    expect(c?.regressions).toEqual([]);
  });
});
