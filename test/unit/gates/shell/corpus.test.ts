import { describe, expect, it } from "vitest";
import { explainBash } from "../../../../gates/shell/gate.ts";
import { corpusWorld, loadCorpus } from "../../../../scripts/fixtures/shell-corpus.ts";

describe("shell-ast corpus", () => {
  const corpus = loadCorpus();

  it("has at least 150 entries covering allow, confirm and deny", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(150);
    for (const kind of ["allow", "confirm", "deny"]) expect(corpus.some((e) => e.expect === kind)).toBe(true);
  });

  it("decides every entry as expected (all mismatches reported at once)", async () => {
    const mismatches: string[] = [];
    for (const entry of corpus) {
      const env = corpusWorld();
      const r = await explainBash(entry.cmd, env);
      const d = r.decision;
      const code = d.kind === "deny" ? d.code : undefined;
      if (d.kind !== entry.expect || (entry.code !== undefined && code !== entry.code)) {
        const detail =
          d.kind === "deny" ? `${d.code}: ${d.reason}` : d.kind === "confirm" ? `${JSON.stringify(d.resources)} ${d.description.replace(/\n/g, " / ")}` : "";
        mismatches.push(`${JSON.stringify(entry.cmd)} expected ${entry.expect}${entry.code ? `(${entry.code})` : ""} got ${d.kind} ${detail}  [${entry.note}]`);
      }
      // A confirmation must name something the user can judge.
      if (d.kind === "confirm" && d.resources.length === 0 && !d.description.includes("not understood"))
        mismatches.push(`${JSON.stringify(entry.cmd)}: confirm without resources or reason`);
    }
    expect(mismatches, mismatches.join("\n")).toEqual([]);
  });
});
