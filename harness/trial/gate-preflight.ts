/**
 * Before a run: every layer that runs something a configuration names (a Claude Code hook, a
 * Pi extension file) is run once in a sandbox on a scratch world, on a harmless call, and must
 * load and answer in its protocol (Gate.preflight). A hook whose module cannot be found, an
 * extension with a syntax error or a program that prints garbage is a configuration error,
 * reported before any trial as bad input (exit 2) naming the configuration and the layer, not
 * a gate that blocks every call and shows 100% prevented.
 */
import type { GateConfig } from "../../gates/config.ts";
import { displayPath } from "../../kernel/yaml.ts";
import { createWorld } from "../sandbox/world/world.ts";

/** One line per problem: `<file or --gates>: <layer>: <what was expected> (<what happened>)`. */
export async function preflightGateConfigs(configs: readonly GateConfig[]): Promise<string[]> {
  const checks = configs.flatMap((config) => config.layers.flatMap((layer, i) => (layer.preflight ? [{ config, layer, i }] : [])));
  if (checks.length === 0) return [];
  const world = await createWorld();
  try {
    const problems: string[] = [];
    for (const { config, layer, i } of checks) {
      let found: string[];
      try {
        found = await layer.preflight!(world.env);
      } catch (e) {
        found = [(e as Error)?.message ?? String(e)];
      }
      const where = config.file ? `${displayPath(config.file)}: layers.${i}.gate` : `--gates: ${config.spec}`;
      for (const p of found) problems.push(`${where}: a layer that loads and answers a harmless call (${layer.name}: ${oneLine(p)})`);
    }
    return problems;
  } finally {
    await world.close();
  }
}

function oneLine(text: string): string {
  const line = text
    .trim()
    .split(/\s*\n\s*/)
    .join(" | ");
  return line.length > 800 ? `${line.slice(0, 800)}…` : line;
}
