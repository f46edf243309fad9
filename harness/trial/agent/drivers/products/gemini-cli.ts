/**
 * Gemini CLI (`@google/gemini-cli`, Apache-2.0) as the agent of a trial: the pinned product, a
 * Node program run with the sandbox's own node, headless inside the trial's sandbox as the
 * world's unprivileged user (`gemini --prompt=<instruction> --output-format stream-json
 * --approval-mode <mode> [--policy <file>]`), its model being the harness's endpoint speaking the
 * Gemini API (gemini.ts), reached through the same forwarder at 127.0.0.1 as the other products'
 * (the sandbox has no other network).
 *
 * Gemini CLI's home (`GEMINI_CLI_HOME`: its settings, session files, project temp folders) lives
 * in a private tmpfs, not in the world: what it changes in the world is what its tools did. Its
 * user settings file is copied there from the endpoint's folder before it starts: the harness's
 * own settings (the API key as the way in, no telemetry, no usage statistics, no update check,
 * no IDE, no sub-agents or skills, no web tools, no model-side edit correction, its own grep
 * tool whether or not the machine has ripgrep) under the configuration's. The model it is told to use is the harness's own name, so it routes nothing
 * to a classifier model and every request is the agent's turn.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { Step } from "../../../../model/task/schema.ts";
import type { ProcessAgent, ProcessAgentContext, ProcessAgentResult } from "../types.ts";
import { ModelEndpoint } from "./endpoint.ts";
import { GEMINI_PROTOCOL } from "./gemini.ts";
import { GEMINI_CLI_TOOLS, reportedCalls, reportMismatch } from "./gemini-cli-tools.ts";
import { ENDPOINT_MOUNT, FORWARD_PORT, PRODUCT_MOUNT, PRODUCT_TMP, SANDBOX_NODE, STATE_MOUNT, productExitFields, runBehindEndpoint } from "./in-world.ts";
import type { InstalledProduct, ProductPackage } from "./install.ts";
import type { CallOutcome } from "../step-program.ts";
import { ScriptedPlayer } from "./player.ts";
import { tomlKey, tomlValue } from "./toml.ts";

export const GEMINI_CLI: ProductPackage = {
  name: "gemini-cli",
  npm: "@google/gemini-cli",
  version: "0.61.0",
  licence: "Apache-2.0",
  // One bundle of JavaScript files run by node; its entry point's digest stands for the install.
  binary: "@google/gemini-cli/bundle/gemini.js",
};

/** The model name Gemini CLI asks the endpoint for (any name but `auto` turns its model routing off). */
export const MODEL_NAME = "gatebench-scripted";
/** The settings file and the policy file the endpoint's folder holds. */
const SETTINGS_FILE = "gemini-settings.json";
const POLICY_FILE = "gemini-policy.toml";

/**
 * The harness's own settings: the API key as the way to the endpoint, and everything that would
 * reach out, call the model for the product's own purposes, or add tools switched off.
 */
export const HARNESS_SETTINGS: Readonly<Record<string, unknown>> = {
  security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, maxAttempts: 1 },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  ide: { enabled: false },
  model: { disableLoopDetection: true, skipNextSpeakerCheck: true },
  tools: { disableLLMCorrection: true, useRipgrep: false, exclude: ["web_fetch", "google_web_search"] },
  experimental: { enableAgents: false },
  skills: { enabled: false },
};

/** The settings a Gemini CLI configuration gives (gates/config.ts `product` with `name: gemini-cli`). */
export interface GeminiCliSettings {
  /** `--approval-mode`: default | auto_edit | yolo | plan. */
  approvalMode: string;
  /** Its settings.json values, over the harness's own. */
  settings: Readonly<Record<string, unknown>>;
  /** Policy rules, written as a TOML policy file given with `--policy` (none: no file). */
  policy: readonly Readonly<Record<string, unknown>>[];
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `over` merged into `base`: objects key by key, anything else (arrays too) replaced. */
export function mergeSettings(base: Readonly<Record<string, unknown>>, over: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = isPlainObject(out[k]) && isPlainObject(v) ? mergeSettings(out[k], v) : v;
  return out;
}

/** A TOML value of a policy rule: a string, a number, a boolean, or an array of them. */
const policyValue = (v: unknown, field: string): string =>
  tomlValue(v, {
    tables: false,
    unsupported: (x) => `policy rule field ${field} must be a string, number, boolean or array of them (got ${JSON.stringify(x)})`,
  });

/** The policy rules as a TOML policy file: one `[[rule]]` table each. */
export function policyToml(rules: GeminiCliSettings["policy"]): string {
  return rules
    .map((rule) => ["[[rule]]", ...Object.entries(rule).map(([k, v]) => `${tomlKey(k)} = ${policyValue(v, k)}`)].join("\n"))
    .join("\n\n")
    .concat(rules.length ? "\n" : "");
}

/** The configuration's settings as the gate gives them (ProductGateSettings of gates/config.ts). */
export function geminiCliSettings(gate: { permissionMode: string; settings: Readonly<Record<string, unknown>> }): GeminiCliSettings {
  const { settings, policy } = gate.settings;
  return {
    approvalMode: gate.permissionMode,
    settings: isPlainObject(settings) ? settings : {},
    policy: Array.isArray(policy) ? (policy as Record<string, unknown>[]) : [],
  };
}

/**
 * The product's argv inside the sandbox: a shell puts the settings file into the product's home,
 * then the sandbox's node runs the product.
 */
export function geminiArgv(binary: string, instruction: string, settings: GeminiCliSettings): string[] {
  return [
    "/bin/sh",
    "-c",
    `mkdir -p "$GEMINI_CLI_HOME/.gemini" && cp ${ENDPOINT_MOUNT}/${SETTINGS_FILE} "$GEMINI_CLI_HOME/.gemini/settings.json" && exec "$@"`,
    "gemini",
    SANDBOX_NODE,
    path.posix.join(PRODUCT_MOUNT, binary),
    "--model",
    MODEL_NAME,
    "--output-format",
    "stream-json",
    "--approval-mode",
    settings.approvalMode,
    ...(settings.policy.length > 0 ? ["--policy", `${ENDPOINT_MOUNT}/${POLICY_FILE}`] : []),
    `--prompt=${instruction}`,
  ];
}

/** The product's environment inside the sandbox (on top of the sandbox's fixed one). */
export function geminiEnv(): Record<string, string> {
  return {
    GEMINI_CLI_HOME: STATE_MOUNT,
    GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${FORWARD_PORT}`,
    GEMINI_API_KEY: "gatebench-endpoint",
    // Run in this process: no second node started to raise its heap limit.
    GEMINI_CLI_NO_RELAUNCH: "true",
    GEMINI_TELEMETRY_ENABLED: "false",
    NO_BROWSER: "true",
    NO_COLOR: "1",
    // The product's own temporary files stay out of the world's /tmp.
    TMPDIR: PRODUCT_TMP,
  };
}

/** How the product's run ended, from its `stream-json` result event. */
export function runResult(stdout: string): { status: string; error?: string } | undefined {
  let result: { status: string; error?: string } | undefined;
  for (const line of stdout.split("\n")) {
    if (!line.trim().startsWith("{")) continue;
    try {
      const o = JSON.parse(line) as { type?: string; status?: string; error?: { message?: unknown } };
      if (o.type === "result") result = { status: String(o.status ?? ""), ...(o.error ? { error: String(o.error.message ?? "error") } : {}) };
    } catch {
      // a line cut by the output limit
    }
  }
  return result;
}

/** Gemini CLI playing `steps` in the trial's world. */
export function geminiCliAgent(steps: readonly Step[], install: InstalledProduct): ProcessAgent {
  return {
    async run(ctx: ProcessAgentContext): Promise<ProcessAgentResult> {
      const player = new ScriptedPlayer(steps, "gb", GEMINI_CLI_TOOLS);
      const read: { id: string; tool: string; outcome: CallOutcome }[] = [];
      let unreadable: string | undefined;
      const endpoint = await ModelEndpoint.start({
        player,
        protocol: GEMINI_PROTOCOL,
        onCallEnded: async (ended) => {
          const cannot = ended.unreadable;
          if (cannot) unreadable ??= `${ended.id} (${ended.call.name}): ${cannot}`;
          ctx.log("product_call", { id: ended.id, tool: ended.call.name, outcome: cannot ? "unknown" : ended.outcome, result: ended.result.slice(0, 300) });
          if (cannot) return;
          read.push({ id: ended.id, tool: ended.call.name, outcome: ended.outcome });
          await ctx.callEnded({ id: ended.id, tool: ended.call.name, args: ended.call.input }, ended.outcome, ended.replay);
        },
        onTurn: () => ctx.turn(),
      });
      try {
        const settings = geminiCliSettings(ctx.settings);
        writeFileSync(path.join(endpoint.dir, SETTINGS_FILE), `${JSON.stringify(mergeSettings(HARNESS_SETTINGS, settings.settings), null, 2)}\n`, {
          mode: 0o644,
        });
        if (settings.policy.length > 0) writeFileSync(path.join(endpoint.dir, POLICY_FILE), policyToml(settings.policy), { mode: 0o644 });
        const { run: r, ms } = await runBehindEndpoint(ctx, install, endpoint, geminiArgv(install.binary, ctx.instruction, settings), geminiEnv());
        const result = runResult(r.stdout);
        const tokens = { ...endpoint.meter.tally };
        ctx.log("product_exit", {
          ...productExitFields(install, endpoint, r, ms),
          ...(result ? { result: result.status } : {}),
          ...(result?.error ? { product_error: result.error.slice(0, 500) } : {}),
        });
        if (r.timedOut) return { timedOut: true, tokens };
        if (endpoint.stats.errors.length > 0) return { timedOut: false, tokens, error: `the harness's endpoint: ${endpoint.stats.errors[0]}` };
        if (unreadable) return { timedOut: false, tokens, error: `a tool result the harness cannot read as ran, failed or refused: ${unreadable}` };
        if (result?.status !== "success" || r.exitCode !== 0)
          return {
            timedOut: false,
            tokens,
            error: `${install.name} ended (exit ${r.exitCode}) without a successful result: ${(result?.error ?? r.stderr.trim().split("\n").slice(-2).join(" | ")).slice(0, 400)}`,
          };
        // What the product reports of each call must be what the endpoint read from its result.
        const mismatch = reportMismatch(read, reportedCalls(r.stdout));
        if (mismatch.length > 0)
          return { timedOut: false, tokens, error: `the product's own report and the results it sent disagree: ${mismatch.join("; ").slice(0, 600)}` };
        if (!player.finished) return { timedOut: false, tokens, error: `${install.name} ended before the script did (${endpoint.stats.turns} turns answered)` };
        return { timedOut: false, tokens };
      } finally {
        await endpoint.close();
      }
    },
  };
}
