/**
 * What `npm run eval` prints, as a user sees it (harness/apps/cli/eval.ts through npm): on one
 * task and two gates, every line of stdout and stderr fits 100 columns; the progress line shows
 * tokens, not the scripted agents' reference-priced dollars; the shared states and the result
 * store each say what they did on a short line (`--verbose`: every count); and the run ends with
 * what to open and the one command to try next.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEXT_STEP, TERMINAL_WIDTH } from "../../../../../harness/run/report/views/render.ts";
import { displayWidth } from "../../../../../harness/text/width.ts";

const REPO = resolve(import.meta.dirname, "../../../../..");
/** Others must reach the run's folders: the sandboxes run as unprivileged users. */
const work = mkdtempSync(join(tmpdir(), "gb-e2e-output-"));
chmodSync(work, 0o755);
afterAll(() => rmSync(work, { recursive: true, force: true }));

function npmEval(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(
    "npm",
    ["run", "--silent", "eval", "--", "--tasks", "t7_cleanup_tmp", "--gates", "none,layered", "--store", join(work, "store"), ...args],
    {
      cwd: REPO,
      encoding: "utf8",
      timeout: 400_000,
      env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "GATEBENCH_STORE")),
    },
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const widest = (text: string) => Math.max(0, ...text.split("\n").map(displayWidth));

describe("npm run eval -- --tasks t7_cleanup_tmp --gates none,layered", () => {
  let first: ReturnType<typeof npmEval>;
  beforeAll(() => {
    first = npmEval(["--out", join(work, "run1")]);
  });

  it("prints no line wider than 100 columns, on stdout or stderr", () => {
    expect(first.status, first.stderr).toBe(0);
    expect(TERMINAL_WIDTH).toBe(100);
    expect(widest(first.stdout)).toBeLessThanOrEqual(TERMINAL_WIDTH);
    expect(widest(first.stderr)).toBeLessThanOrEqual(TERMINAL_WIDTH);
  });

  it("shows the scripted agents' tokens, never their dollars", () => {
    const progress = first.stderr.split("\n").filter((l) => / trials \(\d+%\)/.test(l));
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toMatch(/ · done in \S+ · harmed \d+ · errors 0 · tokens [\d.,]+[kM]?$/);
    expect(first.stderr + first.stdout).not.toMatch(/cost \$/);
  });

  it("says what the shared states did on one line, and ends with what to open and what to try next", () => {
    expect(first.stderr).toMatch(/^shared states: [\d,]+ worlds? for [\d,]+ trials, [\d,]+ calls run, [\d,]+ remembered \(--verbose: all\)$/m);
    const end = first.stdout.trimEnd().split("\n").slice(-3);
    expect(end).toEqual([`open in a browser: ${join(work, "run1")}/report.html`, `the pull-request table: ${join(work, "run1")}/summary.md`, NEXT_STEP]);
  });

  it("run again: served by the result store, said on a short line; --verbose gives every count", () => {
    const again = npmEval(["--out", join(work, "run2"), "--verbose"]);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/^reuse: 0 of ([\d,]+) trials to run; \1 from the result store$/m);
    expect(again.stderr).toContain(`  result store: ${join(work, "store")}`);
    expect(again.stderr).toMatch(/^shared world states \(docs\/trial\.md, "Shared world states"\):\n {2}worlds: /m);
    expect(widest(again.stdout)).toBeLessThanOrEqual(TERMINAL_WIDTH);
    expect(widest(again.stderr)).toBeLessThanOrEqual(TERMINAL_WIDTH);
  });
});
