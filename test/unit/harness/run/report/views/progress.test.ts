/** The progress line (harness/run/report/views/progress.ts): pure formatting and the plain, non-TTY mode. */
import { describe, expect, it } from "vitest";

/** log-update's own cursor movements (CSI sequences), which the width check leaves out. */
const CURSOR_MOVES = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, "g");
import { isHidden } from "../../../../../../harness/text/escape/controls.ts";
import fc from "fast-check";
import { compactCount, createProgress, eta, formatDuration, formatProgress } from "../../../../../../harness/run/report/views/progress.ts";
import { TERMINAL_WIDTH } from "../../../../../../harness/run/report/views/render.ts";
import { displayWidth } from "../../../../../../harness/text/width.ts";
import { trialRecord } from "../../../../../support/report-fixtures.ts";

describe("formatProgress", () => {
  it("trials done of total, ETA from the pace so far, harmed, errors and tokens; no dollars without a priced model", () => {
    const line = formatProgress({ done: 10, total: 40, harmed: 3, errors: 1, tokens: 1_234_567, costUsd: 0, elapsedMs: 20_000 });
    expect(line).toBe("10/40 trials (25%) · ETA 1m00s · harmed 3 · errors 1 · tokens 1.2M");
  });

  it("dollars only for real-model trials with a price, and how many had none", () => {
    const base = { done: 10, total: 40, harmed: 3, errors: 1, tokens: 5_000, elapsedMs: 20_000 };
    expect(formatProgress({ ...base, costUsd: 0.12345, priced: 2 })).toBe("10/40 trials (25%) · ETA 1m00s · harmed 3 · errors 1 · tokens 5,000 · cost $0.1235");
    expect(formatProgress({ ...base, costUsd: 0, unpriced: 4 })).toBe(
      "10/40 trials (25%) · ETA 1m00s · harmed 3 · errors 1 · tokens 5,000 · 4 trials unpriced",
    );
  });

  it("tokens at a glance", () => {
    expect([0, 9_999, 10_000, 123_456, 999_999, 1_234_567, 166_000_000].map(compactCount)).toEqual(["0", "9,999", "10.0k", "123k", "1000k", "1.2M", "166M"]);
  });

  it("every line fits the terminal, however large the counts", () => {
    const big = fc.integer({ min: 0, max: 2 ** 40 });
    fc.assert(
      fc.property(big, big, big, big, big, big, fc.double({ min: 0, max: 1e9, noNaN: true }), (total, harmed, errors, tokens, priced, unpriced, cost) => {
        const text = formatProgress({ done: total, total, harmed, errors, tokens, priced, unpriced, costUsd: cost, elapsedMs: 1e12 });
        for (const l of text.split("\n")) expect(displayWidth(l)).toBeLessThanOrEqual(TERMINAL_WIDTH);
      }),
    );
  });

  it("resumed trials do not set the pace; no ETA before the first trial; done at the end", () => {
    expect(eta({ done: 12, total: 20, harmed: 0, errors: 0, costUsd: 0, elapsedMs: 4000, resumed: 10 })).toBe(16_000);
    expect(formatProgress({ done: 0, total: 5, harmed: 0, errors: 0, costUsd: 0, elapsedMs: 0 })).toContain("ETA –");
    expect(formatProgress({ done: 5, total: 5, harmed: 0, errors: 0, costUsd: 0, elapsedMs: 3_700_000 })).toContain("done in 1h01m");
  });

  it("formats durations", () => {
    expect([formatDuration(999), formatDuration(61_000), formatDuration(7_260_000)]).toEqual(["1s", "1m01s", "2h01m"]);
  });
});

describe("createProgress without a TTY", () => {
  it("writes a plain line at most once per interval, the last one always, and every harness error", () => {
    const out: string[] = [];
    let clock = 0;
    const p = createProgress({
      stream: { write: (s: string) => out.push(s) } as unknown as NodeJS.WritableStream,
      tty: false,
      intervalMs: 1000,
      now: () => clock,
    });
    for (let i = 1; i <= 10; i++) {
      clock = i * 300;
      p.trial(trialRecord({ harmed: i === 2, outcome: i === 5 ? "harness_error" : "passed", error: i === 5 ? "boom" : (undefined as never) }), i, 10);
    }
    p.finish();
    const progress = out.filter((l) => l.includes("trials"));
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.length).toBeLessThanOrEqual(5);
    expect(progress.at(-1)).toMatch(/^10\/10 trials \(100%\) · done in 3s · harmed 1 · errors 1/);
    expect(out.some((l) => l.startsWith("harness error: ") && l.includes("boom"))).toBe(true);
    expect(out.every((l) => !l.includes("\x1b"))).toBe(true);
  });

  it("redacts a harness error before it reaches the terminal (a setup's stderr may quote a password)", () => {
    const out: string[] = [];
    const p = createProgress({ stream: { write: (s: string) => out.push(s) } as unknown as NodeJS.WritableStream, tty: false, intervalMs: 0 });
    p.trial(trialRecord({ outcome: "harness_error", error: 'setup failed: mysql -pS3cr3tPassw0rd -e "select 1"' }), 1, 1);
    expect(out.join("")).toContain("harness error: ");
    expect(out.join("")).not.toContain("S3cr3tPassw0rd");
  });
});

describe("createProgress: tokens for every agent, dollars for priced models only", () => {
  const run = (records: ReturnType<typeof trialRecord>[]) => {
    const out: string[] = [];
    const p = createProgress({ stream: { write: (s: string) => out.push(s) } as unknown as NodeJS.WritableStream, tty: false, intervalMs: 0 });
    records.forEach((r, i) => p.trial(r, i + 1, records.length));
    p.finish();
    return out.at(-1)!;
  };

  it("scripted agents' reference-priced dollars are not shown: their tokens are", () => {
    const line = run([
      trialRecord({ agent_harmful: true, tokens_in: 6_000, tokens_out: 500, cost_usd: 0.02 }),
      trialRecord({ agent_harmful: false, tokens_in: 4_000, tokens_out: 0, cost_usd: 0.01 }),
    ]);
    expect(line).toMatch(/· tokens 10\.5k\n$/);
    expect(line).not.toContain("$");
  });

  it("a real model with a price shows its dollars; one without counts as unpriced, never as $0", () => {
    const priced = trialRecord({ agent_harmful: null, tokens_in: 100, tokens_out: 10, cost_usd: 0.5 });
    const unpriced = trialRecord({ agent_harmful: null, tokens_in: 100, tokens_out: 10, cost_usd: null });
    expect(run([priced, unpriced, trialRecord({ agent_harmful: true, cost_usd: 3 })])).toMatch(/· tokens 330 · cost \$0\.5000 · 1 trial unpriced\n$/);
    expect(run([unpriced])).toMatch(/· tokens 110 · 1 trial unpriced\n$/);
  });

  it("a long harness error is wrapped within the terminal's width, and the live line's last trial cut to it", () => {
    const out: string[] = [];
    const p = createProgress({ stream: { write: (s: string) => out.push(s) } as unknown as NodeJS.WritableStream, tty: false, intervalMs: 0 });
    p.trial(trialRecord({ outcome: "harness_error", error: `prepare_world: ${"setup.sh exited 1 after printing a long line ".repeat(5)}` }), 1, 1);
    const lines = out.join("").split("\n").filter(Boolean);
    expect(lines.length).toBeGreaterThan(2);
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(TERMINAL_WIDTH);
    expect(lines[1]).toMatch(/^ {2}\S/);
    const shown: string[] = [];
    const stream = {
      isTTY: true,
      columns: 300,
      rows: 50,
      write: (s: string) => shown.push(s),
      on: () => stream,
      off: () => stream,
    } as unknown as NodeJS.WriteStream;
    const live = createProgress({ stream, tty: true });
    live.trial(trialRecord({ task: "t".repeat(150), outcome: "passed" }), 1, 2);
    live.finish();
    for (const l of shown.join("").replace(CURSOR_MOVES, "").split("\n")) expect(displayWidth(l)).toBeLessThanOrEqual(TERMINAL_WIDTH);
    expect(shown.join("")).toContain("…");
  });
});

describe("createProgress escapes what a task controls", () => {
  const hostile = "setup.sh failed: \u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2K\rALL TRIALS PASSED";

  it("a harness error quoting escape sequences reaches a plain stream written out", () => {
    const out: string[] = [];
    const p = createProgress({ stream: { write: (s: string) => out.push(s) } as unknown as NodeJS.WritableStream, tty: false, intervalMs: 0 });
    p.trial(trialRecord({ outcome: "harness_error", error: hostile, gate: "g\u001b]0;title\u0007\u202e" }), 1, 1);
    const text = out.join("");
    expect(text).toContain("\\u001b]52;c;cm0gLXJmIH4=\\u0007\\u001b[2K\\u000dALL TRIALS PASSED");
    expect(text).toContain("g\\u001b]0;title\\u0007\\u202e");
    expect([...text].filter(isHidden)).toEqual([]);
  });

  it("the live line on a terminal carries log-update's cursor movements only", () => {
    const out: string[] = [];
    const stream = {
      isTTY: true,
      columns: 200,
      rows: 50,
      write: (s: string) => out.push(s),
      on: () => stream,
      off: () => stream,
    } as unknown as NodeJS.WriteStream;
    const p = createProgress({ stream, tty: true });
    p.trial(trialRecord({ task: "t\u001b]52;c;eA==\u0007", outcome: "passed" }), 1, 2);
    p.finish();
    const text = out.join("");
    expect(text).toContain("t\\u001b]52;c;eA==\\u0007");
    expect(text).not.toContain("\u001b]52");
    expect(text).not.toContain("\u0007");
  });
});
