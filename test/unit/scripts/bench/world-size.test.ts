import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CHANGED_FILE, populateCommand } from "../../../../scripts/bench/world-size.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function populate(files: number): string {
  const d = mkdtempSync(join(tmpdir(), "gatebench-populate-"));
  dirs.push(d);
  execFileSync("bash", ["-c", populateCommand(files)], { cwd: d });
  return d;
}

const count = (root: string) => readdirSync(join(root, "w")).reduce((n, sub) => n + readdirSync(join(root, "w", sub)).length, 0);

describe("populateCommand", () => {
  it("creates exactly the files asked for, at most 1000 a folder", () => {
    for (const n of [1, 1001]) {
      const d = populate(n);
      expect(count(d)).toBe(n);
      for (const sub of readdirSync(join(d, "w"))) expect(readdirSync(join(d, "w", sub)).length).toBeLessThanOrEqual(1000);
    }
  });
  it("creates the file the series changes, with one line of content", () => {
    const d = populate(100);
    expect(readFileSync(join(d, CHANGED_FILE), "utf8")).toBe("1\n");
  });
});
