import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { analyzeBash } from "../../../../gates/shell/analyze.ts";
import { createFakeEnv } from "../../../../scripts/fixtures/fake-env.ts";

const HOME = "/home/user";
const env = createFakeEnv({ files: { "/workspace/README.md": "x\n" }, dirs: [] });

/** The words `printf '%s\n' ...` would print, by the gate's expansion (last command's argv). */
async function gateWords(line: string): Promise<string[]> {
  const a = await analyzeBash(line, env);
  return a.commands.at(-1)!.argv.slice(2);
}

/** The same line run by real bash (not in POSIX mode), with HOME set and no other variables. */
function bashWords(line: string): string[] {
  const out = execFileSync("bash", ["--norc", "--noprofile", "-c", line], { env: { HOME, PATH: process.env.PATH ?? "/usr/bin:/bin" }, encoding: "utf8" });
  return out.split("\n").slice(0, -1);
}

// Words in argument position: bash expands a leading tilde, and in assignment-shaped words the
// tilde after the first `=` and after each `:` that follows; nothing else.
const ARGUMENT_WORDS = [
  "~",
  "~/x",
  "a=~/x",
  "a=~",
  "a+=~/x",
  "_z9=~/x",
  "a=x:~/y",
  "a=~:~/q",
  "a=::~",
  "--out=~/x",
  "--opt=a:~/x",
  "x:~/y",
  "9a=~/x",
  "a.b=~/x",
  "a=y~/x",
  "a=b=~/x",
  "'a=~/x'",
  '"a=~/x"',
  "a=\\~/x",
  'a=~"/x"',
  'a="~"/x',
  'a=~/"x"',
  '~"/x"',
  '~/"x"',
  "~root/x",
  "b=~root/x",
  "~/a:~/b",
  "a=$v:~/x",
  "a=$v~/x",
];

describe("tilde expansion follows bash's rules", () => {
  it.each(ARGUMENT_WORDS)("argument word %s", async (word) => {
    const line = `printf '%s\\n' ${word}`;
    expect(await gateWords(line)).toEqual(bashWords(line));
  });

  const ASSIGNED = ["~/x", "~/x:~/y", "a:~/b", "q:~/x", "~", "x~/y", "'~/x'", "~:~", "$v:~/x"];
  it.each(ASSIGNED)("assignment value %s (plain, exported and as a prefix)", async (value) => {
    for (const line of [`x=${value}; printf '%s\\n' "$x"`, `export x=${value}; printf '%s\\n' "$x"`, `x=${value} bash -c 'printf "%s\\n" "$x"'`]) {
      const gate = line.includes("bash -c") ? (await analyzeBash(line, env)).commands.at(-1)!.argv.slice(2) : await gateWords(line);
      expect(gate, line).toEqual(bashWords(line));
    }
  });

  it("redirect targets are argument words: `> a=~/x` writes under HOME", async () => {
    const a = await analyzeBash("echo hi > a=~/x", env);
    expect(a.effects.map((e) => e.path)).toContain(`/workspace/a=${HOME}/x`);
  });
});
