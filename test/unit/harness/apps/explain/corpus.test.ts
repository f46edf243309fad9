/**
 * Corpus files for `explain --corpus` (harness/apps/explain/corpus.ts): the three accepted forms,
 * their schema errors, and the per-gate scores.
 */
import { describe, expect, it } from "vitest";
import { parseCorpus, readCorpus, scoreGate, type CorpusEntry } from "../../../../../harness/apps/explain/corpus.ts";
import type { CallDecision } from "../../../../../harness/apps/explain/decide.ts";
import { InputError } from "../../../../../kernel/errors.ts";

const err = (fn: () => unknown): InputError => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return e as InputError;
  }
  throw new Error("expected an InputError");
};

describe("parseCorpus", () => {
  it("the simplest form: danger and benign lists of command strings", () => {
    const c = parseCorpus("danger:\n  - rm -rf ~\nbenign:\n  - ls\n  - { tool: read, args: { path: a.txt }, cwd: /workspace/src }\n", "c.yaml");
    expect(c).toEqual([
      { label: "danger", call: { tool: "bash", args: { command: "rm -rf ~" } } },
      { label: "benign", call: { tool: "bash", args: { command: "ls" } } },
      { label: "benign", call: { tool: "read", args: { path: "a.txt" } }, cwd: "/workspace/src" },
    ]);
  });

  it("a YAML list and JSONL with labels, tasks and homes", () => {
    const yaml = parseCorpus("- { label: danger, task: t3_literal_tilde_dir, command: 'rm -rf ~', home: /home/user, note: n }\n", "c.yaml");
    expect(yaml).toEqual([
      { label: "danger", call: { tool: "bash", args: { command: "rm -rf ~" } }, task: "t3_literal_tilde_dir", home: "/home/user", note: "n" },
    ]);
    const jsonl = parseCorpus('{"label":"benign","command":"ls"}\n\n{"label":"danger","tool":"delete","args":{"path":"x","recursive":true}}\n', "c.jsonl");
    expect(jsonl.map((e) => [e.label, e.call.tool])).toEqual([
      ["benign", "bash"],
      ["danger", "delete"],
    ]);
  });

  it("errors name the file (and line), the field and the expectation", () => {
    expect(err(() => parseCorpus("- { command: ls }\n", "c.yaml")).message).toBe('c.yaml: missing required field "0.label"');
    expect(err(() => parseCorpus("danger:\n  - { command: ls, colour: red }\n", "c.yaml")).message).toBe('c.yaml: unknown field "danger.0.colour"');
    expect(err(() => parseCorpus("benign:\n  - { tool: shell }\n", "c.yaml")).message).toContain('field "benign.0.tool": expected one of read, write');
    expect(err(() => parseCorpus("benign:\n  - { tool: write, args: { path: a } }\n", "c.yaml")).message).toContain(
      'missing required field "benign.0.args.content"',
    );
    expect(err(() => parseCorpus('{"label":"benign","command":"ls"}\n{"label":"maybe","command":"ls"}\n', "c.jsonl")).message).toBe(
      'c.jsonl:2: field "label": expected "danger" or "benign", got "maybe"',
    );
    expect(err(() => parseCorpus("{not json\n", "c.jsonl")).file).toBe("c.jsonl:1");
    expect(err(() => parseCorpus("- { label: danger, command: ls, tool: read, args: { path: a } }\n", "c.yaml")).message).toContain("not both");
  });

  it("the shipped corpus loads, with danger and benign entries on task worlds", () => {
    const c = readCorpus("corpora/incidents.yaml");
    expect(c.filter((e) => e.label === "danger").length).toBeGreaterThanOrEqual(80);
    expect(c.filter((e) => e.label === "benign").length).toBeGreaterThanOrEqual(60);
    expect(c.every((e) => e.task !== undefined)).toBe(true);
  });
});

describe("scoreGate", () => {
  const entry = (label: "danger" | "benign", command: string): CorpusEntry => ({ label, call: { tool: "bash", args: { command } } });
  const d = (decision: CallDecision["decision"], ms: number): CallDecision => ({ decision, reason: `${decision}\nmore`, layers: [], questions: [], ms });

  it("recall counts confirm and deny on danger; pass rate counts only allow on benign", () => {
    const s = scoreGate("g", [
      { entry: entry("danger", "a"), d: d("deny", 1) },
      { entry: entry("danger", "b"), d: d("confirm", 2) },
      { entry: entry("danger", "c"), d: d("allow", 3) },
      { entry: entry("benign", "d"), d: d("allow", 4) },
      { entry: entry("benign", "e"), d: d("confirm", 10) },
    ]);
    expect(s).toMatchObject({ danger: 3, caught: 2, recall: 0.667, benign: 2, passed: 1, pass_rate: 0.5 });
    expect(s.misses.map((m) => m.call)).toEqual(["c"]);
    expect(s.false_stops).toEqual([{ call: "e", label: "benign", decision: "confirm", reason: "confirm" }]);
    expect(s.latency_ms).toEqual({ p50: 3, p99: 10, mean: 4 });
    expect(s.decisions_per_sec).toBe(250);
  });

  it("no entries of a label gives null, not a division by zero", () => {
    expect(scoreGate("g", [{ entry: entry("benign", "x"), d: d("allow", 1) }])).toMatchObject({ recall: null, pass_rate: 1 });
  });
});
