import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { failuresOf, parseSeedArgs, propertyFiles, summary } from "../../../scripts/test-seeds.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

describe("test:seeds", () => {
  it("reads N, --from, --project and files; defaults to 20 seeds from 1 on the unit project", () => {
    expect(parseSeedArgs([])).toEqual({ count: 20, from: 1, projects: ["unit"], files: [] });
    expect(parseSeedArgs(["30", "--from", "1000", "--project", "all", "test/unit/a.test.ts"])).toEqual({
      count: 30,
      from: 1000,
      projects: ["unit", "e2e"],
      files: ["test/unit/a.test.ts"],
    });
    expect(parseSeedArgs(["--project", "e2e"]).projects).toEqual(["e2e"]);
  });

  it("rejects bad input naming the flag and what it expected", () => {
    expect(() => parseSeedArgs(["0"])).toThrow('N (the number of seeds): expected an integer >= 1, got "0"');
    expect(() => parseSeedArgs(["--from"])).toThrow("--from: expected an integer");
    expect(() => parseSeedArgs(["--from", "x"])).toThrow('--from: expected an integer >= -2147483648, got "x"');
    expect(() => parseSeedArgs(["--project", "browser"])).toThrow('--project: expected unit, e2e or all, got "browser"');
    expect(() => parseSeedArgs(["--seeds", "3"])).toThrow("--seeds: unknown option");
    expect(() => parseSeedArgs(["5", "--from", String(2 ** 31 - 2)])).toThrow("the last seed must fit a 32-bit integer");
  });

  it("finds the test files that import fast-check, and only those", () => {
    const unit = propertyFiles(ROOT, "unit");
    expect(unit).toContain("test/unit/gates/shell/rules/unknown.test.ts");
    expect(unit).toContain("test/unit/harness/text/redact/redact.property.test.ts");
    expect(unit).not.toContain("test/unit/scripts/test-seeds.test.ts");
    expect(unit.every((f) => f.startsWith("test/unit/") && f.endsWith(".test.ts"))).toBe(true);
    expect(propertyFiles(ROOT, "e2e")).toContain("test/e2e/harness/sandbox/world/inside/snapshot-incremental.test.ts");
  });

  it("lists each failed test of a report with its seed, and a file that failed to load", () => {
    const report = {
      testResults: [
        {
          name: `${ROOT}test/unit/a.test.ts`,
          status: "failed",
          assertionResults: [
            { fullName: "a passes", status: "passed", failureMessages: [] },
            { fullName: "a fails", status: "failed", failureMessages: ['Error: Property failed after 3 tests\n{ seed: 7, path: "2" }\nstack'] },
          ],
        },
        { name: `${ROOT}test/unit/b.test.ts`, status: "failed", message: "SyntaxError: x", assertionResults: [] },
        { name: `${ROOT}test/unit/c.test.ts`, status: "passed", assertionResults: [{ fullName: "c", status: "passed", failureMessages: [] }] },
      ],
    };
    expect(failuresOf(report, 7, ROOT)).toEqual([
      { seed: 7, file: "test/unit/a.test.ts", test: "a fails", message: report.testResults[0]!.assertionResults[1]!.failureMessages[0] },
      { seed: 7, file: "test/unit/b.test.ts", test: "(file)", message: "SyntaxError: x" },
    ]);
  });

  it("summarises a failure as fast-check's report lines and the replay command", () => {
    const message = [
      "Error: Property failed after 21 tests",
      '{ seed: 1, path: "20:0", endOnFailure: true }',
      'Counterexample: ["aa0",["at"]]',
      "Shrunk 7 time(s)",
      "",
      "Replay: FC_SEED=1 npx vitest run x",
      "    at stack",
    ].join("\n");
    expect(summary(message).split("\n")).toEqual([
      "    Error: Property failed after 21 tests",
      '    { seed: 1, path: "20:0", endOnFailure: true }',
      '    Counterexample: ["aa0",["at"]]',
      "    Replay: FC_SEED=1 npx vitest run x",
    ]);
    expect(summary("AssertionError: expected 1 to be 2\n    at x\n    at y\n    at z")).toBe(
      "    AssertionError: expected 1 to be 2\n        at x\n        at y",
    );
  });
});
