/**
 * npx tsx scripts/compare-corpus-paths.ts [--gates shell-ast,layered] [--sample N]
 *
 * Decides corpora/incidents.yaml (each entry on its task's world) and gates/shell/corpus.yaml (on
 * an empty world) under each gate twice: the way a single `explain` call decides (every lookup
 * asked of the world's helper, every dry run in a sandbox of its own) and the corpus mode's
 * shared world (lookups from one listing of the world, dry runs in one read-only sandbox kept for
 * it), and compares every decision, reason, code, layer and question. Prints the differences and
 * exits 1 when there is any. --sample N takes every k-th entry, about N of each corpus.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { loadGateConfig } from "../gates/config.ts";
import { decideEntries, readCorpus, type CorpusEntry } from "../harness/apps/explain/corpus.ts";
import { parseYaml } from "../kernel/yaml.ts";

/** gates/shell/corpus.yaml's entries (cmd, expect) as labelled corpus entries: allow is benign, the rest danger. */
export function shellCorpusEntries(file = "gates/shell/corpus.yaml"): CorpusEntry[] {
  const rows = parseYaml(readFileSync(file, "utf8"), file, []) as { cmd: string; expect: string }[];
  return rows.map((r) => ({ label: r.expect === "allow" ? "benign" : "danger", call: { tool: "bash", args: { command: r.cmd } } }));
}

/** Every k-th entry, about `n` of them (all when n is undefined). */
export function sample<T>(xs: readonly T[], n: number | undefined): T[] {
  if (n === undefined || n >= xs.length) return [...xs];
  const k = xs.length / n;
  return Array.from({ length: n }, (_, i) => xs[Math.floor(i * k)]!);
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { gates: { type: "string" }, sample: { type: "string" } } });
  const gates = (values.gates ?? "shell-ast,layered").split(",").map((g) => loadGateConfig(g.trim()));
  const n = values.sample !== undefined ? Number(values.sample) : undefined;
  const corpora: [string, CorpusEntry[]][] = [
    ["corpora/incidents.yaml", sample(readCorpus("corpora/incidents.yaml"), n)],
    ["gates/shell/corpus.yaml", sample(shellCorpusEntries(), n)],
  ];
  let differences = 0;
  for (const [file, entries] of corpora) {
    const old = await decideEntries(gates, entries, {}, undefined, { sharedWorld: false });
    const now = await decideEntries(gates, entries, {}, undefined, { sharedWorld: true });
    for (const g of gates) {
      const a = old.decided.get(g.name)!;
      const b = now.decided.get(g.name)!;
      let same = 0;
      a.forEach((x, i) => {
        const y = b[i]!;
        const pick = (d: typeof x.d) =>
          JSON.stringify({ decision: d.decision, reason: d.reason, code: d.code, gate: d.gate, layers: d.layers, questions: d.questions });
        if (x.entry !== y.entry || pick(x.d) !== pick(y.d)) {
          differences++;
          process.stdout.write(`DIFF ${file} ${g.name} #${i}: ${JSON.stringify(x.entry.call.args)}\n  one by one: ${pick(x.d)}\n  shared:     ${pick(y.d)}\n`);
        } else same++;
      });
      process.stdout.write(`${file} ${g.name}: ${same}/${a.length} equal\n`);
    }
  }
  process.stdout.write(`${differences} difference(s)\n`);
  return differences === 0 ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) main().then((c) => process.exit(c));
