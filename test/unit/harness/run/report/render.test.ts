/**
 * The terminal table (harness/run/report/render.ts) shows what the harm was: wrongful deletions and
 * modifications apart, caught / false blocks / inert, and misses.
 */
import { describe, expect, it } from "vitest";
import { isHidden } from "../../../../../harness/text/escape/controls.ts";
import { METRIC_COLUMNS } from "../../../../../harness/run/report/columns.ts";
import { renderTerminalTable } from "../../../../../harness/run/report/render.ts";
import { summarize } from "../../../../../harness/run/report/summary.ts";
import { summaryOf, summaryRow, trialRecord } from "../../../../support/report-fixtures.ts";

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

describe("renderTerminalTable", () => {
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
    const c = cells(renderTerminalTable(summarize("r", records)), "none");
    expect(c.harmed).toBe("1");
    expect(c["wrongful del."]).toBe("0");
    expect(c["wrongful mod."]).toBe("1");
    expect(c.misses).toBe("1");
  });

  it("shows caught, false blocks and inert blocks, and – where an older summary has no inert count", () => {
    const withInert = cells(renderTerminalTable(summaryOf([summaryRow({ gate: "layered", caught: 3, false_blocks: 2, inert: 4 })])), "layered");
    expect([withInert.caught, withInert["false blocks"], withInert.inert]).toEqual(["3", "2", "4"]);
    const { inert: _drop, ...old } = summaryRow({ gate: "old" });
    expect(cells(renderTerminalTable(summaryOf([old])), "old").inert).toBe("–");
  });

  it("writes a gate name's escape sequences out before measuring the columns", () => {
    const gate = "g\u001b]52;c;eA==\u0007\u001b[1A\u009b2J\u202e";
    const table = renderTerminalTable(summaryOf([summaryRow({ gate }), summaryRow({ gate: "none" })]));
    expect(cells(table, "g\\u001b]52;c;eA==\\u0007\\u001b[1A\\u009b2J\\u202e").trials).toBeDefined();
    expect([...table].filter(isHidden)).toEqual([]);
    const widths = new Set(table.split("\n").map((l) => l.length));
    expect(widths.size).toBe(1);
  });
});
