/**
 * Attack: shards of one matrix run by different gate code, merged as one run. The gate
 * configuration file is the same (so the matrix fingerprint is), but the hook it runs lets
 * everything through in one shard and blocks recursive deletes in the other: `merge` must refuse
 * (exit 2) naming both shards and the gate whose code differs, instead of a merged table of two
 * different gates. Shards run with the same code still merge.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = mkdtempSync(join(tmpdir(), "gb-attack-merge-"));
chmodSync(root, 0o755);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const hook = (deny: boolean) => `import { readFileSync } from "node:fs";
const input = JSON.parse(readFileSync(0, "utf8"));
const command = String(input.tool_input?.command ?? "");
const deny = ${deny} && input.tool_name === "Bash" && /\\brm\\s+-\\w*r/.test(command);
process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: deny ? "deny" : "allow", permissionDecisionReason: "recursive delete" } }));
`;

const stack = join(root, "stack");
mkdirSync(join(stack, "hooks"), { recursive: true, mode: 0o755 });
chmodSync(stack, 0o755);
const CONFIG = join(stack, "guard.yaml");
writeFileSync(CONFIG, 'description: our hook\nlayers:\n  - gate: "claude-hook:node ./hooks/guard.mjs"\n');
const setHook = (deny: boolean) => writeFileSync(join(stack, "hooks", "guard.mjs"), hook(deny), { mode: 0o644 });

function gatebench(args: string[]): { status: number | null; out: string } {
  const r = spawnSync("npx", ["tsx", "harness/apps/cli/eval.ts", ...args], { encoding: "utf8", env: { ...process.env, GITHUB_STEP_SUMMARY: "" } });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const MATRIX = ["--tasks", "t7_cleanup_tmp", "--agents", "scripted:careless", "--gates", `none,mine=${CONFIG}`, "--approvers", "headless", "--no-store"];

function shard(name: string, i: number, deny: boolean): string {
  setHook(deny);
  const out = join(root, name);
  const r = gatebench([...MATRIX, "--shard", `${i}/2`, "--out", out]);
  expect(r.status, r.out).toBe(0);
  return out;
}

describe("attack: merging shards run by different gate code", () => {
  it("refuses them, naming the shards and the gate; shards of the same code merge", () => {
    const allowing = shard("a1", 1, false);
    const blocking = shard("b2", 2, true);
    const refused = gatebench(["merge", allowing, blocking, "--out", join(root, "merged-bad")]);
    expect(refused.status, refused.out).toBe(2);
    expect(refused.out).toMatch(/bad input: merge: \(code\): shards run with the same code and configuration/);
    expect(refused.out).toMatch(/gate mine: \w+ in 1\/2 \([^)]*a1\) vs \w+ in 2\/2 \([^)]*b2\)/);
    expect(refused.out).not.toMatch(/gate none:/);
    expect(existsSync(join(root, "merged-bad", "results.jsonl"))).toBe(false);

    const same = shard("b1", 1, true);
    const merged = gatebench(["merge", same, blocking, "--out", join(root, "merged")]);
    expect(merged.status, merged.out).toBe(0);
  });
});
