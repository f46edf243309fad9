/**
 * What a run prints on the terminal (harness/run/report/views/render.ts): by default the headline table,
 * within 100 columns for a full-size run, long labels cut; `--table full` shows what the
 * harm was (wrongful deletions and modifications apart, caught / false blocks / inert, misses).
 */
import { describe, expect, it } from "vitest";
import { isHidden } from "../../../../../../harness/text/escape/controls.ts";
import { METRIC_COLUMNS } from "../../../../../../harness/run/report/views/columns.ts";
import { compareSummaries } from "../../../../../../harness/run/report/statistics/compare.ts";
import { renderPrTable } from "../../../../../../harness/run/report/views/markdown.ts";
import { summarizeRun } from "../../../../../../harness/run/report/publishing/publish.ts";
import {
  NEXT_STEP,
  NEXT_STEP_OWN_GATE,
  nextStep,
  renderFullTable,
  renderHeadlineTable,
  renderRunText,
  TERMINAL_WIDTH,
} from "../../../../../../harness/run/report/views/render.ts";
import { summarize } from "../../../../../../harness/run/report/statistics/summary.ts";
import { displayWidth } from "../../../../../../harness/text/width.ts";
import { BUILT_IN_GATES, NEVER_ASKING, syntheticFullRun } from "../../../../../support/full-run.ts";
import { renderGfm, tablesOf } from "../../../../../support/gfm.ts";
import { summaryOf, summaryRow, trialRecord } from "../../../../../support/report-fixtures.ts";

/** The table's cells by column head for the row whose first cell is `gate`. */
function cells(table: string, gate: string): Record<string, string> {
  const lines = table.split("\n").filter((l) => l.startsWith("│"));
  const split = (l: string) =>
    l
      .split("│")
      .slice(1, -1)
      .map((c) => c.trim());
  const head = split(lines[0]!);
  const row = lines.map(split).find((c) => c[0] === gate);
  expect(row, gate).toBeDefined();
  return Object.fromEntries(head.map((h, i) => [h, row![i]!]));
}

describe("renderFullTable", () => {
  it("has columns for wrongful modifications, caught, false blocks, inert and misses", () => {
    const heads = METRIC_COLUMNS.map((c) => c.head);
    for (const h of ["wrongful del.", "wrongful mod.", "caught", "false blocks", "inert", "misses"]) expect(heads).toContain(h);
  });

  it("a trial harmed by a rewritten file shows as a wrongful modification, not a harm without a cause", () => {
    const records = [
      trialRecord({
        gate: "none",
        harmed: true,
        passed: false,
        outcome: "failed",
        wrongful_modifications: 1,
        bytes_lost: 0,
        wrongful_paths: ["/workspace/.env"],
        misses: 1,
      }),
    ];
    const c = cells(renderFullTable(summarize("r", records)), "none");
    expect(c.harmed).toBe("1");
    expect(c["wrongful del."]).toBe("0");
    expect(c["wrongful mod."]).toBe("1");
    expect(c.misses).toBe("1");
  });

  it("shows caught, false blocks and inert blocks, and – where an older summary has no inert count", () => {
    const withInert = cells(renderFullTable(summaryOf([summaryRow({ gate: "layered", caught: 3, false_blocks: 2, inert: 4 })])), "layered");
    expect([withInert.caught, withInert["false blocks"], withInert.inert]).toEqual(["3", "2", "4"]);
    const { inert: _drop, ...old } = summaryRow({ gate: "old" });
    expect(cells(renderFullTable(summaryOf([old])), "old").inert).toBe("–");
  });

  it("labels the scripted agents' dollars once, in the head, with the reference model that prices their tokens", () => {
    const table = renderFullTable(summaryOf([summaryRow({ gate: "none", cost_usd: 0.25 })]));
    expect(table).toContain("est. cost $ at anthropic/claude-sonnet-4-5");
    expect(table.match(/claude-sonnet-4-5/g)).toHaveLength(1);
    expect(cells(table, "none")["est. cost $ at anthropic/claude-sonnet-4-5"]).toBe("0.2500");
  });

  it("writes a gate name's escape sequences out before measuring the columns", () => {
    const gate = "g\u001b]52;c;eA==\u0007\u001b[1A\u009b2J\u202e";
    const table = renderFullTable(summaryOf([summaryRow({ gate }), summaryRow({ gate: "none" })]));
    expect(cells(table, "g\\u001b]52;c;eA==\\u0007\\u001b[1A\\u009b2J\\u202e").trials).toBeDefined();
    expect([...table].filter(isHidden)).toEqual([]);
    const widths = new Set(table.split("\n").map((l) => l.length));
    expect(widths.size).toBe(1);
  });
});

/** The widest line of `text`, in terminal columns. */
const widest = (text: string) => Math.max(...text.split("\n").map(displayWidth));
/** The cells of each body row of the first table in `text` (rows of the form │ a │ b │). */
function rowsOf(text: string): string[][] {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.startsWith("├"));
  const end = lines.findIndex((l, i) => i > start && l.startsWith("└"));
  return lines.slice(start + 1, end).map((l) =>
    l
      .split("│")
      .slice(1, -1)
      .map((c) => c.trim()),
  );
}

describe("the default terminal output: the headline table, within 100 columns", () => {
  const { records } = syntheticFullRun();
  const summary = summarizeRun("full", records, {});
  const run = { table: "headline" as const, records, wallMs: 912_345, outDir: "/tmp/gatebench-full" };

  it("every line of a full-size run (17 gate configurations × 4 users) fits 100 columns", () => {
    expect(TERMINAL_WIDTH).toBe(100);
    const text = renderRunText(summary, run);
    expect(widest(text)).toBeLessThanOrEqual(TERMINAL_WIDTH);
    const gates = rowsOf(text).map((r) => r[0]!.replace(/ \*$/, ""));
    expect(gates.sort()).toEqual([...BUILT_IN_GATES].sort());
  });

  it("shows summary.md's headline columns, cell for cell", () => {
    const terminal = rowsOf(renderHeadlineTable(summary, { records }));
    const md = tablesOf(renderGfm(renderPrTable(summary, undefined, records).join("\n")))[0]!.slice(1);
    expect(terminal).toEqual(md.map((r) => r.slice(0, -1)));
  });

  it("ends with the run's size on one line, then what to open and what each is for, then the one command to try next", () => {
    const lines = renderRunText(summary, run).trimEnd().split("\n");
    expect(lines.slice(-5)).toEqual([
      "",
      "80 tasks · 15,600 trials in 912.3 s · per gate 80 harmful and 160 benign trials under fatigued",
      "open in a browser: /tmp/gatebench-full/report.html",
      "the pull-request table: /tmp/gatebench-full/summary.md",
      "next: measure your own gate beside these: npx gatebench init (docs/your-gate.md)",
    ]);
    const deep = renderRunText(summary, { ...run, outDir: `/tmp/${"nested/".repeat(8)}run` })
      .trimEnd()
      .split("\n");
    expect(deep.slice(-3, -1).map((l) => l.split(": ")[0])).toEqual(["open in a browser", "the pull-request table"]);
    expect(widest(deep.join("\n"))).toBeLessThanOrEqual(TERMINAL_WIDTH);
  });

  it("names the run folder as it is given (eval gives it relative to the cwd)", () => {
    const lines = renderRunText(summary, { ...run, outDir: "reports/runs/20261207-131800-abcd/" })
      .trimEnd()
      .split("\n");
    expect(lines.slice(-3, -1)).toEqual([
      "open in a browser: reports/runs/20261207-131800-abcd/report.html",
      "the pull-request table: reports/runs/20261207-131800-abcd/summary.md",
    ]);
  });

  it("stays within 100 columns when comparing: the verdict is cut, the regressions are listed and wrapped", () => {
    const worse = summarizeRun(
      "worse",
      records.map((r) => (r.gate === "layered" && r.agent_harmful ? { ...r, harmed: true } : r)),
      {},
    );
    const comparison = compareSummaries(summary, worse);
    comparison.warnings.push(`the task hashes differ: ${Array.from({ length: 30 }, (_, i) => `t${i}_task`).join(", ")}`);
    const text = renderRunText(worse, { ...run, comparison });
    expect(widest(text)).toBeLessThanOrEqual(TERMINAL_WIDTH);
    const layered = rowsOf(text).find((r) => r[0] === "layered")!;
    expect(layered.at(-1)).toMatch(/^REGRESSION.*…$/);
    expect(text).toMatch(/^Regressions:\n {2}- layered\/fatigued: harm rate [\d.]+% -> [\d.]+%$/m);
    expect(text).toMatch(/^Warning: the task hashes differ: t0_task, .*\n {2}t\d+_task, /m);
  });

  it("cuts a 200-character gate label (and a wide-character one) with an ellipsis on the terminal only", () => {
    const long = `claude-hook:/opt/hooks/${"guard-".repeat(30)}`.slice(0, 200);
    const wide = `claude-hook:${"守".repeat(100)}`;
    expect(long).toHaveLength(200);
    const more = records
      .filter((r) => r.gate === "layered")
      .flatMap((r) => [
        { ...r, gate: long, trial_id: `${r.trial_id}.long` },
        { ...r, gate: wide, trial_id: `${r.trial_id}.wide` },
      ]);
    const all = [...records, ...more];
    const s = summarizeRun("long", all, {});
    for (const table of ["headline", "full"] as const) {
      const text = renderRunText(s, { ...run, records: all, table });
      if (table === "headline") expect(widest(text)).toBeLessThanOrEqual(TERMINAL_WIDTH);
      expect(text).toContain("claude-hook:/opt/hooks/guar");
      expect(text).not.toContain(long);
      expect(text).toMatch(/claude-hook:\/opt\/hooks\/guar[a-z-]*…/);
      expect(text).toMatch(/claude-hook:守+…/);
    }
    expect(s.rows.filter((r) => r.gate === long)).toHaveLength(4);
    expect(JSON.stringify(s)).toContain(JSON.stringify(long));
  });
});

describe("--table full", () => {
  it("every column, a row per gate and user, and one row for a gate that never asks", () => {
    const { records } = syntheticFullRun({ tasks: 5 });
    const summary = summarizeRun("full", records, {});
    const rows = rowsOf(renderFullTable(summary, { records }));
    expect(rows[0]).toHaveLength(METRIC_COLUMNS.length);
    expect(rows.filter((r) => r[0] === "layered").map((r) => r[1])).toEqual([
      "fatigued (realistic)",
      "headless (bound)",
      "oracle-scope (answer-key)",
      "rubber-stamp (bound)",
    ]);
    for (const g of [...NEVER_ASKING, "none"]) expect(rows.filter((r) => r[0] === g).map((r) => r[1])).toEqual(["any (never asks)"]);
    expect(rows).toHaveLength(summary.rows.length - 3 * NEVER_ASKING.length);
  });
});

describe("the run's next step", () => {
  it("is init while every gate is built in, the edit-and-rerun loop once one is the user's own", () => {
    const rec = (gate: string) => trialRecord({ gate });
    expect(nextStep([rec("none"), rec("layered")])).toBe(NEXT_STEP);
    expect(nextStep([rec("none"), rec("layered"), rec("mine")])).toBe(NEXT_STEP_OWN_GATE);
    expect(nextStep([rec("claude-hook:python3 ./my_hook.py")])).toBe(NEXT_STEP_OWN_GATE);
    expect(nextStep([])).toBe(NEXT_STEP);
  });
});
