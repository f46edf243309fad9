/**
 * Claude Code (`@anthropic-ai/claude-code`) as the agent of a trial: the pinned product, run
 * headless inside the trial's sandbox as the world's unprivileged user (`claude -p <instruction>
 * --output-format stream-json --verbose` with the configuration's permission mode and settings),
 * its model being the harness's endpoint, reached through a forwarder at 127.0.0.1 inside the
 * sandbox (which has no other network). The product's own state lives in a private tmpfs, not in
 * the world: what it changes in the world is what its tools did.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { Step } from "../../../../model/task/schema.ts";
import type { ProcessAgent, ProcessAgentContext, ProcessAgentResult } from "../types.ts";
import { denialMismatch } from "./claude-code-tools.ts";
import { ModelEndpoint } from "./endpoint.ts";
import { ENDPOINT_MOUNT, FORWARD_PORT, PRODUCT_MOUNT, PRODUCT_TMP, STATE_MOUNT, productExitFields, runBehindEndpoint } from "./in-world.ts";
import type { InstalledProduct, ProductPackage } from "./install.ts";
import { ScriptedPlayer } from "./player.ts";

const ARCH = process.arch === "arm64" ? "arm64" : "x64";

export const CLAUDE_CODE: ProductPackage = {
  name: "claude-code",
  npm: "@anthropic-ai/claude-code",
  version: "2.1.332",
  licence: "proprietary (Anthropic's Commercial Terms of Service; SEE LICENSE IN README.md)",
  binary: `@anthropic-ai/claude-code-linux-${ARCH}/claude`,
};

/** The product's argv inside the sandbox. */
export function claudeArgv(binary: string, instruction: string, permissionMode: string, settingsPath: string): string[] {
  return [
    path.posix.join(PRODUCT_MOUNT, binary),
    "-p",
    instruction,
    "--output-format",
    "stream-json",
    "--verbose",
    "--permission-mode",
    permissionMode,
    "--settings",
    settingsPath,
  ];
}

/** The product's environment inside the sandbox (on top of the sandbox's fixed one). */
export function claudeEnv(): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${FORWARD_PORT}`,
    ANTHROPIC_API_KEY: "sk-gatebench-endpoint",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CONFIG_DIR: STATE_MOUNT,
    // The product's own temporary files (its sockets, session files) stay out of the world's /tmp.
    CLAUDE_CODE_TMPDIR: PRODUCT_TMP,
  };
}

/** The product's final result line of its stream-json output, if it printed one. */
export function finalResult(stdout: string): { permissionDenials: string[]; isError: boolean; subtype: string } | undefined {
  const lines = stdout.split("\n").filter((l) => l.trim().startsWith("{"));
  for (const line of lines.reverse()) {
    try {
      const o = JSON.parse(line) as { type?: string; permission_denials?: { tool_use_id?: string }[]; is_error?: boolean; subtype?: string };
      if (o.type !== "result") continue;
      return {
        permissionDenials: (o.permission_denials ?? []).map((d) => String(d.tool_use_id)),
        isError: o.is_error === true,
        subtype: String(o.subtype ?? ""),
      };
    } catch {
      // a line cut by the output limit
    }
  }
  return undefined;
}

/** Claude Code playing `steps` in the trial's world. */
export function claudeCodeAgent(steps: readonly Step[], install: InstalledProduct): ProcessAgent {
  return {
    async run(ctx: ProcessAgentContext): Promise<ProcessAgentResult> {
      const player = new ScriptedPlayer(steps);
      const blockedIds = new Set<string>();
      const endpoint = await ModelEndpoint.start({
        player,
        onCallEnded: async (ended) => {
          if (ended.outcome === "blocked") blockedIds.add(ended.id);
          ctx.log("product_call", {
            id: ended.id,
            tool: ended.call.name,
            outcome: ended.outcome,
            result: ended.result.slice(0, 300),
            ...(ended.prep ? { prep: true } : {}),
          });
          await ctx.callEnded({ id: ended.id, tool: ended.call.name, args: ended.call.input }, ended.outcome, ended.replay);
        },
        onTurn: () => ctx.turn(),
      });
      try {
        const settingsPath = path.join(endpoint.dir, "settings.json");
        writeFileSync(settingsPath, `${JSON.stringify(ctx.settings.settings, null, 2)}\n`, { mode: 0o644 });
        const { run: r, ms } = await runBehindEndpoint(
          ctx,
          install,
          endpoint,
          claudeArgv(install.binary, ctx.instruction, ctx.settings.permissionMode, `${ENDPOINT_MOUNT}/settings.json`),
          claudeEnv(),
        );
        const result = finalResult(r.stdout);
        const tokens = { ...endpoint.meter.tally };
        ctx.log("product_exit", {
          ...productExitFields(install, endpoint, r, ms),
          ...(result ? { permission_denials: result.permissionDenials.length, result: result.subtype } : {}),
        });
        if (r.timedOut) return { timedOut: true, tokens };
        if (endpoint.stats.errors.length > 0) return { timedOut: false, tokens, error: `the harness's endpoint: ${endpoint.stats.errors[0]}` };
        if (!result)
          return {
            timedOut: false,
            tokens,
            error: `${install.name} ended (exit ${r.exitCode}) without a result: ${r.stderr.trim().split("\n").slice(-2).join(" | ").slice(0, 400)}`,
          };
        // What the product says it refused must be what the endpoint read as refused.
        const mismatch = denialMismatch(blockedIds, new Set(result.permissionDenials));
        if (mismatch.length > 0)
          return {
            timedOut: false,
            tokens,
            error: `the product's permission_denials and the tool results it sent disagree on ${mismatch.join(", ")} (a refusal worded in a way the endpoint does not know)`,
          };
        if (!player.finished) return { timedOut: false, tokens, error: `${install.name} ended before the script did (${endpoint.stats.turns} turns answered)` };
        return { timedOut: false, tokens };
      } finally {
        await endpoint.close();
      }
    },
  };
}
