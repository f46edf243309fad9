/** The progress line (harness/run/report/progress.ts): pure formatting and the plain, non-TTY mode. */
import { describe, expect, it } from "vitest";
import { isHidden } from "../../../../../harness/text/escape/controls.ts";
import { createProgress, eta, formatDuration, formatProgress } from "../../../../../harness/run/report/progress.ts";
import { trialRecord } from "../../../../support/report-fixtures.ts";

describe("formatProgress", () => {
  it("trials done of total, ETA from the pace so far, harmed, errors and cost", () => {
    const line = formatProgress({ done: 10, total: 40, harmed: 3, errors: 1, costUsd: 0.12345, elapsedMs: 20_000 });
    expect(line).toBe("10/40 trials (25%) · ETA 1m00s · harmed 3 · errors 1 · cost $0.1235");
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
