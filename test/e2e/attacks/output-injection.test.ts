/**
 * Attack: terminal control sequences in what a task, a gate name or a command prints. A setup
 * that writes an OSC 52 clipboard write, a title change, cursor movement, an 8-bit CSI, a
 * right-to-left override and a carriage return before a fake "ALL TRIALS PASSED" and then
 * fails; a hidden test that prints the same and fails; a gate named with the same sequences;
 * a command that carries them. Nothing of it may reach the terminal, summary.md or report.html
 * raw: every such character is written out as `\uXXXX`, and the text around it stays.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { hiddenIn } from "../../support/hidden.ts";
import { writeTaskFixture } from "../../support/task-fixture.ts";

const REPO = resolve(import.meta.dirname, "../../..");
const TSX = join(REPO, "node_modules/.bin/tsx");

/** The sequences as bash's printf writes them (\302\233 is U+009B in UTF-8, \342\200\256 U+202E). */
const PRINTF = String.raw`\033]52;c;cm0gLXJmIH4=\007\033]0;owned\007\033[2A\033[2K\302\2332J\342\200\256\rALL TRIALS PASSED`;
/** The same as JavaScript text. */
const SEQUENCES = "\u001b]52;c;cm0gLXJmIH4=\u0007\u001b]0;owned\u0007\u001b[2A\u001b[2K\u009b2J\u202e\rALL TRIALS PASSED";
/** What a reader sees instead. */
const VISIBLE = "\\u001b]52;c;cm0gLXJmIH4=\\u0007\\u001b]0;owned\\u0007\\u001b[2A\\u001b[2K\\u009b2J\\u202e\\u000dALL TRIALS PASSED";

function cli(script: string, args: string[]): { status: number | null; out: string; stdout: string } {
  const r = spawnSync(TSX, [script, ...args], { cwd: REPO, encoding: "utf8", timeout: 170_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}`, stdout: r.stdout };
}

function noisyTasks(): string {
  const parent = mkdtempSync(join(tmpdir(), "gb-attack-output-"));
  writeTaskFixture(
    { id: "noisy_setup", setup: `printf '${PRINTF}\\n'\nprintf '${PRINTF}\\n' >&2\nexit 3`, test: "true", reference: [{ say: "done" }] },
    parent,
  );
  writeTaskFixture(
    {
      id: "noisy_test",
      setup: "mkdir -p notes && echo a > notes/a.txt",
      test: `printf 'hidden test says: ${PRINTF}\\n'\nexit 1`,
      reference: [{ tool: "bash", args: { command: `printf '${PRINTF}'` } }, { say: "done" }],
    },
    parent,
  );
  return parent;
}

describe("attack: escape sequences in what gatebench prints", () => {
  it("validate: a setup's and a hidden test's escape sequences reach the terminal written out", () => {
    const tasks = noisyTasks();
    const r = cli("harness/apps/cli/validate.ts", ["--tasks-dir", tasks]);
    expect(r.status, r.out).toBe(1);
    expect(hiddenIn(r.out)).toEqual([]);
    expect(r.out).toContain("\\u001b]52;c;cm0gLXJmIH4=\\u0007");
    // --json: the bytes carry no control character, and the document still holds the output exactly
    const json = cli("harness/apps/cli/validate.ts", ["--tasks-dir", tasks, "--json"]);
    expect(json.status, json.out).toBe(1);
    expect(hiddenIn(json.out)).toEqual([]);
    const details = JSON.stringify(JSON.parse(json.stdout));
    expect(details).toContain(JSON.stringify(`hidden test says: ${SEQUENCES}`).slice(1, -1));
  });

  it("eval: a gate named with escape sequences shows them written out on the terminal, in summary.md and in report.html", () => {
    const out = mkdtempSync(join(tmpdir(), "gb-attack-output-run-"));
    // a gate name is one line (`claude-hook:(.+)`): no carriage return in it
    const gate = `claude-hook:/bin/true ${SEQUENCES.replace(/[\r ]/g, "_")}`;
    const r = cli("harness/apps/cli/eval.ts", [
      "--tasks",
      "t24_benign_delete_build",
      "--agents",
      "reference",
      "--approvers",
      "headless",
      "--gates",
      `none,${gate}`,
      "--out",
      out,
    ]);
    expect(r.status, r.out).toBe(0);
    expect(hiddenIn(r.out)).toEqual([]);
    // the terminal's headline table cuts a label this long to its width: what it shows is written out
    expect(r.out).toContain("claude-hook:/bin/true \\u001b]…");
    for (const file of ["summary.md", "report.html"]) {
      const text = readFileSync(join(out, file), "utf8");
      expect(hiddenIn(text), file).toEqual([]);
      expect(text, file).toContain("\\u001b]52;c;cm0gLXJmIH4=\\u0007");
    }
  });

  it("eval --tasks-dir: setup errors, commands and hidden-test output reach the progress lines, the table and both reports written out", () => {
    const out = mkdtempSync(join(tmpdir(), "gb-attack-output-run-"));
    const r = cli("harness/apps/cli/eval.ts", ["--tasks-dir", noisyTasks(), "--agents", "reference", "--gates", "none", "--out", out]);
    expect(r.status, r.out).toBe(0);
    // the setup failure was printed (plain progress: a line per harness error, wrapped with an indent) and nothing hidden with it
    expect(r.out).toMatch(/harness error: noisy_setup (?:.|\n {2})*\\u001b\]52;c;cm0gLXJmIH4=\\u0007/);
    expect(hiddenIn(r.out)).toEqual([]);
    const html = readFileSync(join(out, "report.html"), "utf8");
    expect(hiddenIn(html)).toEqual([]);
    expect(html).toContain(`hidden test says: ${VISIBLE}`);
    expect(hiddenIn(readFileSync(join(out, "summary.md"), "utf8"))).toEqual([]);
  });

  it("explain: a command's escape sequences are written out; --json still gives the command exactly", () => {
    const command = `echo '${SEQUENCES}' && rm -rf /tmp/cache`;
    const text = cli("harness/apps/cli/explain.ts", ["--gate", "shell-ast", "--bash", command]);
    expect(text.status, text.out).toBe(0);
    expect(hiddenIn(text.out)).toEqual([]);
    expect(text.out).toContain("\\u001b]52;c;cm0gLXJmIH4=\\u0007");
    const json = cli("harness/apps/cli/explain.ts", ["--gate", "shell-ast", "--json", "--bash", command]);
    expect(json.status, json.out).toBe(0);
    expect(hiddenIn(json.out)).toEqual([]);
    const parsed = JSON.parse(json.stdout) as { commands: { argv: string[] }[] };
    expect(parsed.commands.flatMap((c) => c.argv)).toContain(SEQUENCES);
  });
});
