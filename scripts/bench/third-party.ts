/**
 * Cost of third-party gates per tool call, on this machine:
 *   npx tsx scripts/bench/third-party.ts [samples]
 * - gate sandbox floor: a one-shot read-only bwrap running `true`
 * - a trivial bash hook (exit 0) through the claude-hook gate
 * - cc-safety-net's hook (standard preset) through the claude-hook gate, allow and deny
 * - for comparison: cc-safety-net's hook run directly on the host (no sandbox), and its library
 *   checkCommand in-process on a host directory (not used by the gate: it reads the file system).
 */
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { makeClaudeHookGate } from "../../gates/third-party/claude-hook/gate.ts";
import { DEPENDENCIES_DIR } from "../../kernel/package-root.ts";
import type { Gate, GateContext } from "../../gates/types.ts";
import { createWorld } from "../../harness/sandbox/world/world.ts";
import { median } from "./stats.ts";

async function time(samples: number, f: () => unknown): Promise<number> {
  await f(); // warm-up
  const xs: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await f();
    xs.push(performance.now() - t0);
  }
  return Math.round(median(xs) * 10) / 10;
}

async function main(): Promise<void> {
  const samples = Number(process.argv[2] ?? 10);
  const dir = mkdtempSync(join(tmpdir(), "gatebench-hookbench-"));
  const trivial = join(dir, "allow.sh");
  writeFileSync(trivial, "#!/bin/bash\nexit 0\n");
  chmodSync(trivial, 0o755);
  const world = await createWorld();
  const ctx: GateContext = { env: world.env, signal: new AbortController().signal, ui: { hasUI: false, confirm: async () => false }, runId: "bench" };
  const decide = (g: Gate, command: string) => () => g.decide({ id: "b", tool: "bash", args: { command } }, ctx);
  const ccsn = makeClaudeHookGate({ name: "cc-safety-net", command: "cc-safety-net hook --coding-cli" });
  const payload = JSON.stringify({
    session_id: "s",
    transcript_path: "",
    cwd: dir,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "ls" },
    tool_use_id: "t",
  });
  const bin = join(DEPENDENCIES_DIR, "cc-safety-net/dist/bin/cc-safety-net.js");
  const { checkCommand } = await import("cc-safety-net/api");
  try {
    const rows = {
      load_average_1m: Math.round(loadavg()[0]! * 100) / 100,
      gate_sandbox_true_ms: await time(samples, () => world.runGateProcess(["true"], "")),
      claude_hook_trivial_ms: await time(samples, decide(makeClaudeHookGate({ name: "allow", command: trivial }), "ls")),
      cc_safety_net_sandbox_allow_ms: await time(samples, decide(ccsn, "ls")),
      cc_safety_net_sandbox_deny_ms: await time(samples, decide(ccsn, "git reset --hard")),
      cc_safety_net_host_hook_ms: await time(samples, () =>
        execa(process.execPath, [bin, "hook", "--coding-cli"], {
          input: payload,
          reject: false,
          extendEnv: false,
          env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir },
        }),
      ),
      cc_safety_net_library_in_process_ms: await time(samples * 10, () => checkCommand({ command: "git reset --hard", cwd: dir })),
    };
    console.log(JSON.stringify(rows, null, 2));
  } finally {
    await world.close();
  }
}

await main();
