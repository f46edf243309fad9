/** The corpus speed section of `npm run bench`: judging and rendering (no timing is asserted). */
import { describe, expect, it } from "vitest";
import { type CorpusSpeedRow, corpusSpeedTarget, renderCorpusSpeed, summarizeCorpusSpeed } from "../../../../scripts/bench/corpus-speed.ts";
import { renderReport, renderTargets } from "../../../../scripts/bench/render.ts";
import { buildReport } from "../../../../scripts/bench/report.ts";
import { measurements } from "./fixtures.ts";

const row = (gate: string, decisions_per_s: number, in_flight = 8): CorpusSpeedRow => ({
  gate,
  decisions: 153,
  in_flight,
  deciding_ms: (153 / decisions_per_s) * 1000,
  wall_ms: 20_000.04,
  decisions_per_s,
});
const section = (rows: CorpusSpeedRow[]) => summarizeCorpusSpeed({ file: "corpora/incidents.yaml", entries: 153, worlds: 29, cores: 2, rows });

describe("corpus speed", () => {
  it("judges shell-ast and layered against 2,000 decisions/s; a process-per-call gate is reported, not judged", () => {
    const s = section([row("shell-ast", 2500), row("layered", 2000), row("cc-safety-net", 3, 2)]);
    expect(s.judged.map((j) => [j.gate, j.target.value, j.target.status])).toEqual([
      ["shell-ast", 2500, "PASS"],
      ["layered", 2000, "PASS"],
    ]);
    expect(s.status).toBe("PASS");
    expect(corpusSpeedTarget(s)).toMatchObject({ value: 2000, op: ">=", limit: 2000, status: "PASS" });
    expect(s.rows[0]!.wall_ms).toBe(20000);
  });

  it("the slowest judged gate decides the target; one below it misses", () => {
    const s = section([row("shell-ast", 1999), row("layered", 5000)]);
    expect(s.status).toBe("MISS");
    expect(corpusSpeedTarget(s)).toMatchObject({ value: 1999, status: "MISS" });
  });

  it("a judged gate that was not measured, or a section not run, is n/a, never a pass", () => {
    const s = section([row("shell-ast", 9000)]);
    expect(s.judged.find((j) => j.gate === "layered")!.target.status).toBe("n/a");
    expect(s.status).toBe("n/a");
    expect(corpusSpeedTarget(s).status).toBe("n/a");
    expect(corpusSpeedTarget(null)).toMatchObject({ value: null, status: "n/a" });
  });

  it("renders one row per gate with its verdict, and says when it did not run", () => {
    const text = renderCorpusSpeed(section([row("shell-ast", 2500), row("layered", 1500), row("cc-safety-net", 3, 2)]));
    expect(text).toContain("Corpus speed: corpora/incidents.yaml, 153 entries on 29 worlds, each gate alone, 2 cores");
    expect(text).toContain(": MISS");
    expect(text).toMatch(/shell-ast\s+153\s+8\s+0\.06\s+20\.0\s+2500\s+≥ 2000 PASS/);
    expect(text).toMatch(/layered\s+153\s+8\s+0\.10\s+20\.0\s+1500\s+≥ 2000 MISS/);
    expect(text).toMatch(/cc-safety-net\s+153\s+2\s+51\.00\s+20\.0\s+3\s+– \(a process per call\)/);
    expect(renderCorpusSpeed(null)).toBe("Corpus speed: not run (--quick)");
  });

  it("is a target and a section of the whole bench's report", () => {
    const none = buildReport(measurements());
    expect(none.targets.corpus_decisions_per_s.status).toBe("n/a");
    expect(none.gates.corpus_speed).toBeNull();
    const s = section([row("shell-ast", 2100), row("layered", 2400)]);
    const r = buildReport(measurements({ corpusSpeed: s }));
    expect(r.targets.corpus_decisions_per_s).toMatchObject({ value: 2100, status: "PASS" });
    expect(r.gates.corpus_speed).toEqual(s);
    expect(renderTargets(r)).toMatch(/corpus mode, decisions\/s \(slowest of shell-ast, layered\)\s*│ 2100 decisions\/s/);
    expect(renderReport(r)).toContain("Corpus speed: corpora/incidents.yaml");
  });
});
