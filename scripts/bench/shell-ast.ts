/**
 * Decision latency of the shell-ast gate over its corpus (tinybench). Each iteration decides
 * the next corpus command (round robin) against the fake world, so the percentiles are over
 * commands, from trivial `ls` to nested wrappers. The grammar is loaded before timing.
 * Run alone: `npx tsx scripts/bench/shell-ast.ts`.
 */
import { Bench } from "tinybench";
import { explainBash } from "../../gates/shell/gate.ts";
import { corpusWorld, loadCorpus } from "../fixtures/shell-corpus.ts";
import { loadBashParser } from "../../gates/shell/parse.ts";

export interface ShellAstBench {
  p50_us: number;
  p99_us: number;
  n: number;
}

export async function benchShellAst(opts: { time?: number } = {}): Promise<ShellAstBench> {
  await loadBashParser();
  const corpus = loadCorpus();
  const env = corpusWorld();
  let i = 0;
  const bench = new Bench({ name: "shell-ast", time: opts.time ?? 2000, iterations: corpus.length * 4, warmupIterations: corpus.length });
  bench.add("decide", async () => {
    const entry = corpus[i++ % corpus.length]!;
    await explainBash(entry.cmd, env);
  });
  await bench.run();
  const r = bench.tasks[0]!.result;
  if (!("latency" in r)) throw new Error(`shell-ast bench did not complete (${r.state})`);
  return { p50_us: round(r.latency.p50 * 1000), p99_us: round(r.latency.p99 * 1000), n: r.latency.samplesCount };
}

const round = (x: number) => Math.round(x * 10) / 10;

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchShellAst()));
}
