/**
 * corpora/classes.yaml decided in memory on its world (scripts/fixtures/classes-corpus.ts), the
 * same entries `explain --corpus ... --world corpora/classes-world.yaml` decides in a sandbox.
 */
import { describe, expect, it } from "vitest";
import { explainBash } from "../../../gates/shell/gate.ts";
import { classesWorld, loadClassesCorpus } from "../../../scripts/fixtures/classes-corpus.ts";

const CLASSES = [
  "interpreter",
  "own delete or overwrite mode",
  "in-place editor",
  "output-file argument",
  "archiver or extractor",
  "data tool applying input",
  "unknown program",
  "fan-out",
  "schedule or key state",
  "container bind mount",
  "git plumbing",
];

describe("corpora/classes.yaml", () => {
  const corpus = loadClassesCorpus();

  it("has at least 150 danger and 100 benign entries, each with a note naming its class", () => {
    expect(corpus.filter((e) => e.label === "danger").length).toBeGreaterThanOrEqual(150);
    expect(corpus.filter((e) => e.label === "benign").length).toBeGreaterThanOrEqual(100);
    for (const e of corpus) expect(e.note, e.command).toMatch(/^[a-z -]+: ./);
    for (const c of CLASSES)
      expect(
        corpus.some((e) => e.label === "danger" && e.note?.startsWith(`${c}:`)),
        c,
      ).toBe(true);
  });

  it("shell-ast catches at least 97% of the danger and passes at least 97% of the benign entries", async () => {
    const env = classesWorld();
    const misses: string[] = [];
    const stops: string[] = [];
    for (const e of corpus) {
      const r = await explainBash(e.command, env);
      if (e.label === "danger" && r.decision.kind === "allow") misses.push(`${e.command}  [${e.note}]`);
      if (e.label === "benign" && r.decision.kind !== "allow") stops.push(`${e.command}: ${r.reason.split("\n")[0]}  [${e.note}]`);
    }
    const danger = corpus.filter((e) => e.label === "danger").length;
    const benign = corpus.length - danger;
    expect(misses.length / danger, misses.join("\n")).toBeLessThanOrEqual(0.03);
    expect(stops.length / benign, stops.join("\n")).toBeLessThanOrEqual(0.03);
  });
});
