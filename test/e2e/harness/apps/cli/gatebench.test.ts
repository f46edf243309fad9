/**
 * The gatebench program (harness/apps/cli/gatebench.ts through bin/gatebench.mjs): `--help` on
 * every command exits 0 with that command's own text; no command, or an unknown one, exits 2.
 */
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../../../../harness/apps/cli/gatebench.ts";

const BIN = join(resolve(import.meta.dirname, "../../../../.."), "bin", "gatebench.mjs");
const gatebench = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", timeout: 120_000 });

describe("gatebench --help", () => {
  it("every command answers --help with its own text, exit 0", () => {
    const texts = new Map<string, string>();
    for (const command of Object.keys(COMMANDS)) {
      const r = gatebench([command, "--help"]);
      expect(r.status, `${command}: ${r.stderr}`).toBe(0);
      expect(r.stdout, command).toMatch(new RegExp(`^usage: gatebench ${command}\\b`));
      texts.set(command, r.stdout);
    }
    expect(new Set(texts.values()).size).toBe(texts.size);
    const top = gatebench(["--help"]);
    expect(top.status).toBe(0);
    for (const command of Object.keys(COMMANDS)) expect(top.stdout).toContain(`  ${command} `);
  });

  it("npm run's entry points answer --help too (the checkout's scripts run the same modules)", () => {
    for (const file of ["eval.ts", "validate.ts", "explain.ts", "new-task.ts"]) {
      const r = spawnSync(process.execPath, ["--import", "tsx", join(resolve(import.meta.dirname, "../../../../.."), "harness/apps/cli", file), "--help"], {
        encoding: "utf8",
        timeout: 120_000,
      });
      expect(r.status, `${file}: ${r.stderr}`).toBe(0);
      expect(r.stdout, file).toMatch(/^usage: gatebench /);
    }
    const merge = spawnSync(
      process.execPath,
      ["--import", "tsx", join(resolve(import.meta.dirname, "../../../../.."), "harness/apps/cli/eval.ts"), "merge", "--help"],
      {
        encoding: "utf8",
        timeout: 120_000,
      },
    );
    expect(merge.stdout).toMatch(/^usage: gatebench merge/);
  });

  it("no command, or an unknown one, is bad input: exit 2", () => {
    expect(gatebench([]).status).toBe(2);
    const r = gatebench(["evaluate"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("bad input: command line: evaluate: a command: eval, merge, store, validate, explain, import, mutate, new-task, init");
  });
});
