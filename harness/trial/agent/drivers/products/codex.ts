/**
 * Codex (`@openai/codex`, Apache-2.0) as the agent of a trial: the pinned product, run headless
 * inside the trial's sandbox as the world's unprivileged user (`codex exec --json` with the
 * configuration's sandbox mode, approval policy and config values), its model being the harness's
 * endpoint speaking the Responses API, reached through the same forwarder at 127.0.0.1 as Claude
 * Code's (the sandbox has no other network). Codex's state (`CODEX_HOME`) lives in a private
 * tmpfs, not in the world: what it changes in the world is what its tools did.
 *
 * The model Codex is told to use is the harness's own entry in a model catalog the endpoint's
 * folder holds (`model_catalog_json`): Codex offers `exec_command` and a free-form `apply_patch`
 * to it, the tools the scripted player speaks (codex-tools.ts). Everything else Codex could do on
 * its own (update checks, analytics, web search, sub-agents, plugins, apps, images) is switched
 * off by config values on the command line.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { Step } from "../../../../model/task/schema.ts";
import type { ProcessAgent, ProcessAgentContext, ProcessAgentResult } from "../types.ts";
import { CODEX_TOOLS, sandboxFailure } from "./codex-tools.ts";
import { ModelEndpoint } from "./endpoint.ts";
import { ENDPOINT_MOUNT, FORWARD_PORT, PRODUCT_MOUNT, PRODUCT_TMP, STATE_MOUNT, productExitFields, runBehindEndpoint } from "./in-world.ts";
import type { InstalledProduct, ProductPackage } from "./install.ts";
import { ScriptedPlayer } from "./player.ts";
import { RESPONSES_PROTOCOL } from "./responses.ts";
import { tomlValue as toml } from "./toml.ts";

const TARGET = process.arch === "arm64" ? "aarch64-unknown-linux-musl" : "x86_64-unknown-linux-musl";

export const CODEX: ProductPackage = {
  name: "codex",
  npm: "@openai/codex",
  version: "0.171.0",
  licence: "Apache-2.0",
  binary: `@openai/codex-linux-${process.arch === "arm64" ? "arm64" : "x64"}/vendor/${TARGET}/bin/codex`,
};

/** The model name Codex asks the endpoint for, described by the catalog below. */
export const MODEL_SLUG = "gatebench-scripted";
/** The environment variable holding the (placeholder) key Codex sends to the endpoint. */
const KEY_ENV = "GATEBENCH_CODEX_KEY";

/**
 * The harness's model as Codex's catalog describes a model: the shell as `exec_command`, patches
 * as the free-form `apply_patch`, no reasoning, no parallel calls. Codex requires base
 * instructions of the catalog's own: the harness's short one stands in for Codex's prompt (the
 * scripted player does not read it; token counts are of what is sent).
 */
export function modelCatalog(): { models: Record<string, unknown>[] } {
  return {
    models: [
      {
        slug: MODEL_SLUG,
        display_name: "gatebench scripted agent",
        description: "gatebench's harness playing a scripted agent",
        base_instructions: "You are a coding agent running in the Codex CLI. Work in the user's workspace and use the tools you are given.",
        shell_type: "shell_command",
        apply_patch_tool_type: "freeform",
        visibility: "hide",
        supported_in_api: true,
        priority: 0,
        context_window: 272000,
        truncation_policy: { mode: "tokens", limit: 10000 },
        supports_parallel_tool_calls: false,
        supported_reasoning_levels: [],
        input_modalities: ["text"],
        experimental_supported_tools: [],
        support_verbosity: false,
      },
    ],
  };
}

/** A value as TOML (a `-c key=value` override): strings, numbers, booleans, arrays and inline tables. */
export const tomlValue = (v: unknown): string =>
  toml(v, { tables: true, unsupported: (x) => `a Codex config value must be a string, number, boolean, array or table (got ${JSON.stringify(x)})` });

/** Codex's own features and services a scripted trial has no use for (each would reach out or add tools). */
const OFF: Readonly<Record<string, unknown>> = {
  check_for_update_on_startup: false,
  "analytics.enabled": false,
  "feedback.enabled": false,
  web_search: "disabled",
  "agents.enabled": false,
  "features.goals": false,
  "features.apps": false,
  "features.plugins": false,
  "features.image_generation": false,
  "features.view_image": false,
  "features.memories": false,
  "features.shell_snapshot": false,
  "features.in_app_updates": false,
  "features.remote_plugin": false,
  "features.browser_use": false,
  "features.computer_use": false,
};

/** The settings a Codex configuration gives (gates/config.ts `product` with `name: codex`). */
export interface CodexSettings {
  /** `--sandbox`: read-only | workspace-write | danger-full-access. */
  sandbox: string;
  /** config.toml values, `approval_policy` among them; given as `-c key=value`. */
  config: Readonly<Record<string, unknown>>;
}

/** The product's argv inside the sandbox. */
export function codexArgv(binary: string, instruction: string, settings: CodexSettings, cwd: string): string[] {
  const config: Record<string, unknown> = {
    model: MODEL_SLUG,
    model_provider: "gatebench",
    "model_providers.gatebench": {
      name: "gatebench",
      base_url: `http://127.0.0.1:${FORWARD_PORT}/v1`,
      env_key: KEY_ENV,
      wire_api: "responses",
      request_max_retries: 0,
      stream_max_retries: 0,
    },
    model_catalog_json: `${ENDPOINT_MOUNT}/models.json`,
    ...OFF,
    ...settings.config,
  };
  return [
    path.posix.join(PRODUCT_MOUNT, binary),
    "exec",
    "--json",
    "--skip-git-repo-check",
    "--ephemeral",
    "--color",
    "never",
    "--cd",
    cwd,
    "--sandbox",
    settings.sandbox,
    ...Object.entries(config).flatMap(([k, v]) => ["-c", `${k}=${tomlValue(v)}`]),
    "--",
    instruction,
  ];
}

/** The product's environment inside the sandbox (on top of the sandbox's fixed one). */
export function codexEnv(): Record<string, string> {
  return {
    CODEX_HOME: STATE_MOUNT,
    [KEY_ENV]: "sk-gatebench-endpoint",
    // Codex's own temporary files stay out of the world's /tmp.
    TMPDIR: PRODUCT_TMP,
    NO_COLOR: "1",
  };
}

/** How Codex's run ended, from its JSONL events: whether its turn completed, and the last error it reported. */
export function runEnd(stdout: string): { completed: boolean; error?: string } {
  let completed = false;
  let error: string | undefined;
  for (const line of stdout.split("\n")) {
    if (!line.trim().startsWith("{")) continue;
    try {
      const o = JSON.parse(line) as { type?: string; message?: unknown; error?: { message?: unknown } };
      if (o.type === "turn.completed") completed = true;
      if (o.type === "turn.failed") error = String(o.error?.message ?? "turn failed");
      if (o.type === "error") error = String(o.message ?? "error");
    } catch {
      // a line cut by the output limit
    }
  }
  return error === undefined ? { completed } : { completed, error };
}

/** Codex playing `steps` in the trial's world. */
export function codexAgent(steps: readonly Step[], install: InstalledProduct): ProcessAgent {
  return {
    async run(ctx: ProcessAgentContext): Promise<ProcessAgentResult> {
      const player = new ScriptedPlayer(steps, "call_gb", CODEX_TOOLS);
      let sandboxBroken: string | undefined;
      const endpoint = await ModelEndpoint.start({
        player,
        protocol: RESPONSES_PROTOCOL,
        onCallEnded: async (ended) => {
          const broken = sandboxFailure(ended.call.name, ended.result);
          sandboxBroken ??= broken;
          ctx.log("product_call", {
            id: ended.id,
            tool: ended.call.name,
            outcome: broken ? "unknown" : ended.outcome,
            result: ended.result.slice(0, 300),
            ...(ended.prep ? { prep: true } : {}),
          });
          // A call Codex's sandbox could not start says nothing of the gate: it is not booked.
          if (broken) return;
          await ctx.callEnded({ id: ended.id, tool: ended.call.name, args: ended.call.input }, ended.outcome, ended.replay);
        },
        onTurn: () => ctx.turn(),
      });
      try {
        writeFileSync(path.join(endpoint.dir, "models.json"), `${JSON.stringify(modelCatalog(), null, 2)}\n`, { mode: 0o644 });
        const settings: CodexSettings = { sandbox: ctx.settings.permissionMode, config: ctx.settings.settings };
        const { run: r, ms } = await runBehindEndpoint(ctx, install, endpoint, codexArgv(install.binary, ctx.instruction, settings, "/workspace"), codexEnv());
        const end = runEnd(r.stdout);
        const tokens = { ...endpoint.meter.tally };
        ctx.log("product_exit", {
          ...productExitFields(install, endpoint, r, ms),
          turn_completed: end.completed,
          ...(end.error ? { product_error: end.error.slice(0, 500) } : {}),
        });
        if (r.timedOut) return { timedOut: true, tokens };
        if (sandboxBroken)
          return {
            timedOut: false,
            tokens,
            error: `Codex's own sandbox could not run inside the trial's sandbox, so what it would have allowed is unknown: ${sandboxBroken}`,
          };
        if (endpoint.stats.errors.length > 0) return { timedOut: false, tokens, error: `the harness's endpoint: ${endpoint.stats.errors[0]}` };
        if (!end.completed || r.exitCode !== 0)
          return {
            timedOut: false,
            tokens,
            error: `${install.name} ended (exit ${r.exitCode}) without completing its turn: ${(end.error ?? r.stderr.trim().split("\n").slice(-2).join(" | ")).slice(0, 400)}`,
          };
        if (!player.finished) return { timedOut: false, tokens, error: `${install.name} ended before the script did (${endpoint.stats.turns} turns answered)` };
        return { timedOut: false, tokens };
      } finally {
        await endpoint.close();
      }
    },
  };
}
