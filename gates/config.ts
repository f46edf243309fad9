/**
 * Gate configurations: a YAML file stacks gate layers. `gates/configs/<name>.yaml` are the
 * built-in ones; a `--gates` entry may also be a configuration file anywhere, a
 * `claude-hook:<command>` or `pi-extension:<file>` one-layer stack, each with an optional label
 * (gates/config-entry.ts). A layer is a registry gate (`gate: path-policy`, gates/registry.ts) or
 * spelled like the command line (`gate: "claude-hook:node ./hook.mjs"`, `gate: "pi-extension:./ext.ts"`);
 * relative paths in a configuration file's layers are resolved against that file's folder.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { InputError } from "../kernel/errors.ts";
import { PACKAGE_ROOT } from "../kernel/package-root.ts";
import { buildStrictProfile, type SandboxProfile } from "../kernel/sandbox-profile.ts";
import { displayPath, readYamlFile } from "../kernel/yaml.ts";
import { CONFIGS_DIR, listGateConfigNames, parseGateEntry, splitGateEntries, type GateEntry } from "./config-entry.ts";
import { GATE_KINDS } from "./kinds.ts";
import { gateLayer } from "./registry.ts";
import type { Gate, GateFactoryContext, IntegrityMode } from "./types.ts";

export { CONFIGS_DIR, listGateConfigNames } from "./config-entry.ts";

export const ProjectTrustMode = z.enum(["always", "never", "ask"]);
export type ProjectTrustMode = z.infer<typeof ProjectTrustMode>;

/** One rule of Gemini CLI's policy engine, as its TOML policy files spell it. */
const GeminiPolicyRule = z.strictObject({
  toolName: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
  commandPrefix: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
  commandRegex: z.string().min(1).optional(),
  argsPattern: z.string().min(1).optional(),
  decision: z.enum(["allow", "deny", "ask_user"]),
  priority: z.number().int().min(0).max(999),
  modes: z.array(z.enum(["default", "autoEdit", "yolo", "plan"])).optional(),
  interactive: z.boolean().optional(),
  denyMessage: z.string().optional(),
});

const GateConfigSchema = z.strictObject({
  description: z.string().min(1),
  project_trust: ProjectTrustMode.optional(),
  /**
   * Arguments an extension rewrote after the gates and the user saw the call: `enforce` blocks
   * the call (integrity_violation), `off` runs the rewrite as Pi 0.73.1 does.
   */
  integrity: z.enum(["enforce", "off"]).default("enforce"),
  /** OS profile the agent's tools run under (the `sandbox` layer): default bubblewrap, or stricter. */
  os_profile: z.enum(["default", "strict"]).default("default"),
  /** strict only: home paths that stay writable ("~/.cache" or "/home/user/.cache"). */
  os_writable: z.array(z.string().min(1)).optional(),
  /**
   * strict only: what the agent cannot read. "~/.ssh" or "/workspace/secrets.json" (a directory
   * under home or a file under any root), or a file-name glob such as ".env" / ".env.*".
   * Default: ~/.ssh, ~/.aws, ~/.gnupg, ~/.config/gcloud.
   */
  os_masked: z.array(z.string().min(1)).optional(),
  /** strict only: masked things look empty ("hidden", default) or refuse access ("unreadable", EACCES). */
  os_mask_style: z.enum(["hidden", "unreadable"]).optional(),
  /**
   * strict only: a call the user explicitly approved runs outside the strict profile (in the
   * default sandbox), like Codex's on-request escalation; unapproved calls stay confined.
   */
  os_escalate_approved: z.boolean().optional(),
  /**
   * The gate is an agent product's own permission system (docs/products.md): the product, its
   * permission mode and its settings content (permissions allow/ask/deny, hooks), given to the
   * product as it runs in the trial's sandbox. Such a configuration has no layers of gatebench's,
   * and runs only with the product's agents.
   */
  product: z
    .discriminatedUnion("name", [
      z.strictObject({
        name: z.literal("claude-code"),
        permission_mode: z.enum(["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"]).default("default"),
        settings: z.record(z.string(), z.unknown()).default({}),
      }),
      // Codex: its sandbox mode (`--sandbox`), its approval policy and any other config.toml values.
      z.strictObject({
        name: z.literal("codex"),
        sandbox: z.enum(["read-only", "workspace-write", "danger-full-access"]),
        approval_policy: z.enum(["untrusted", "on-failure", "on-request", "never"]),
        config: z.record(z.string(), z.unknown()).default({}),
      }),
      // Gemini CLI: its approval mode, settings.json values and policy rules (written as a TOML policy file).
      z.strictObject({
        name: z.literal("gemini-cli"),
        approval_mode: z.enum(["default", "auto_edit", "yolo", "plan"]),
        settings: z.record(z.string(), z.unknown()).default({}),
        policy: z.array(GeminiPolicyRule).default([]),
      }),
    ])
    .optional(),
  layers: z
    .array(
      z.strictObject({
        gate: z.string().min(1),
        with: z.record(z.string(), z.unknown()).default({}),
      }),
    )
    .default([]),
});

export interface GateConfig {
  /** The label: the row in every table, the record's `gate` field, a part of every trial id. */
  name: string;
  description: string;
  /**
   * Where this configuration came from: `gates/configs/<name>.yaml` for a built-in one, a
   * configuration file's path relative to gatebench's folder (`../../my-stack.yaml`), or `--gates`.
   */
  source: string;
  /** The configuration file, absolute (built-in or not); absent for a `claude-hook:`/`pi-extension:` entry. */
  file?: string;
  /** How it was given: the built-in name, the file as written, or `claude-hook:<command>` / `pi-extension:<file>`. */
  spec: string;
  projectTrust?: ProjectTrustMode;
  integrity: IntegrityMode;
  /**
   * The OS profile the agent's tools run under, built from os_profile and the os_* options
   * (the world resolves it against the trial's directories). A strict profile's
   * `escalateApproved` says whether a call the user approved runs in the default sandbox.
   */
  sandbox: SandboxProfile;
  layers: Gate[];
  /** The registry name of each layer (gates/registry.ts), in order. */
  layerKinds: string[];
  /** Identifies the policy in approval records: the config name plus a digest of its file. */
  policyVersion: string;
  /**
   * An agent product's own settings as the gate (runs only with that product's agents): Claude
   * Code's permission mode and settings file; Codex's sandbox mode and config.toml values (its
   * approval policy among them); Gemini CLI's approval mode, and its settings.json values and
   * policy rules as `settings` and `policy`.
   */
  product?: { name: string; permissionMode: string; settings: Readonly<Record<string, unknown>> };
}

const SPELLED_LAYER = /^(claude-hook|pi-extension):([\s\S]*)$/;
/** The option a spelled layer's value fills. */
const SPELLED_OPTION = { "claude-hook": "command", "pi-extension": "file" } as const;

/** One layer: a registry gate, or `claude-hook:<command>` / `pi-extension:<file>` spelled as on the command line. */
function buildLayer(gate: string, options: Record<string, unknown>, where: string, field: string, context: GateFactoryContext): { kind: string; layer: Gate } {
  const spelled = SPELLED_LAYER.exec(gate);
  if (spelled) {
    const kind = spelled[1] as keyof typeof SPELLED_OPTION;
    const option = SPELLED_OPTION[kind];
    const value = spelled[2]!.trim();
    if (!value) throw new InputError(where, field, `${kind}:<${option}> with the ${option} after the colon`);
    if (option in options) throw new InputError(where, `with.${option}`, `either gate: ${kind}:<${option}> or with.${option}, not both`);
    return { kind, layer: gateLayer(kind)!.create({ ...options, [option]: value }, where, context) };
  }
  const layer = gateLayer(gate);
  if (!layer) throw new InputError(where, field, `one of ${[...GATE_KINDS].sort().join(", ")}, claude-hook:<command> or pi-extension:<file> (got "${gate}")`);
  return { kind: gate, layer: layer.create(options, where, context) };
}

function productSettings(p: NonNullable<z.infer<typeof GateConfigSchema>["product"]>): NonNullable<GateConfig["product"]> {
  if (p.name === "codex") return { name: p.name, permissionMode: p.sandbox, settings: { ...p.config, approval_policy: p.approval_policy } };
  if (p.name === "gemini-cli") return { name: p.name, permissionMode: p.approval_mode, settings: { settings: p.settings, policy: p.policy } };
  return { name: p.name, permissionMode: p.permission_mode, settings: p.settings };
}

/** A configuration file: `where` names it in errors; relative paths in its layers are resolved against `baseDir`. */
function loadConfigFile(file: string, opts: { name: string; where: string; source: string; spec: string; baseDir: string }): GateConfig {
  const raw = readYamlFile(file, GateConfigSchema);
  if (raw.product && (raw.layers.length > 0 || raw.project_trust || raw.os_profile !== "default"))
    throw new InputError(
      opts.where,
      "product",
      "a product configuration without layers, project_trust or os_profile (the product's own settings are the gate)",
    );
  const built = raw.layers.map((l, i) => buildLayer(l.gate, l.with, `${opts.where} (layers.${i})`, "layers.gate", { baseDir: opts.baseDir }));
  return {
    name: opts.name,
    description: raw.description,
    source: opts.source,
    file,
    spec: opts.spec,
    ...(raw.project_trust ? { projectTrust: raw.project_trust } : {}),
    integrity: raw.integrity,
    ...sandboxOf(raw, opts.where),
    layers: built.map((b) => b.layer),
    layerKinds: built.map((b) => b.kind),
    policyVersion: `${opts.name}@${digestFile(file)}`,
    ...(raw.product ? { product: productSettings(raw.product) } : {}),
  };
}

/** A `claude-hook:`/`pi-extension:` entry: a one-layer stack in the default sandbox; the layer's own errors name the entry. */
function loadSpelled(entry: Extract<GateEntry, { kind: "claude-hook" | "pi-extension" }>, flag: string, given: string): GateConfig {
  let layer: Gate;
  try {
    layer = gateLayer(entry.kind)!.create({ [SPELLED_OPTION[entry.kind]]: entry.value }, flag, { baseDir: entry.baseDir });
  } catch (e) {
    if (e instanceof InputError) throw new InputError(flag, given, e.expected);
    throw e;
  }
  const description = entry.kind === "claude-hook" ? `Claude Code PreToolUse hook ${entry.value}` : `Pi extension ${entry.value}`;
  return {
    name: entry.label,
    description,
    source: "--gates",
    spec: entry.spelling,
    integrity: "enforce",
    sandbox: { kind: "default" },
    layers: [layer],
    layerKinds: [entry.kind],
    policyVersion: entry.label === entry.spelling ? entry.label : `${entry.label}=${entry.spelling}`,
  };
}

/**
 * Load one `--gates` entry (gates/config-entry.ts). `dir` holds the built-in configurations;
 * relative paths of an entry are read from `cwd`. Bad input names the flag or file, the field
 * and what was expected.
 */
export function loadGateConfig(entry: string, dir = CONFIGS_DIR, opts: { cwd?: string; flag?: string } = {}): GateConfig {
  const flag = opts.flag ?? "--gates";
  const parsed = parseGateEntry(entry, { flag, configsDir: dir, ...(opts.cwd ? { cwd: opts.cwd } : {}) });
  if (parsed.kind === "builtin") {
    const where = `gates/configs/${parsed.label}.yaml`;
    return loadConfigFile(path.join(dir, `${parsed.label}.yaml`), { name: parsed.label, where, source: where, spec: parsed.label, baseDir: PACKAGE_ROOT });
  }
  if (parsed.kind !== "file") return loadSpelled(parsed, flag, entry);
  if (!existsSync(parsed.file)) throw new InputError(flag, entry, `an existing configuration file (${parsed.file} does not exist)`);
  if (!statSync(parsed.file).isFile()) throw new InputError(flag, entry, `a configuration file (${parsed.file} is not a file)`);
  return loadConfigFile(parsed.file, {
    name: parsed.label,
    where: displayPath(parsed.file),
    // relative to gatebench's folder, as the built-in ones: summary.json's gate_hashes read it from there
    source: path.relative(PACKAGE_ROOT, parsed.file),
    spec: parsed.given,
    baseDir: path.dirname(parsed.file),
  });
}

type SandboxFields = Pick<GateConfig, "sandbox">;

/** Whether a call the user approved runs outside the strict profile (in the default sandbox). */
export function escalatesApproved(config: Pick<GateConfig, "sandbox">): boolean {
  return config.sandbox.kind === "strict" && config.sandbox.escalateApproved === true;
}

/** The sandbox profile a configuration asks for; os_* options need os_profile: strict and valid paths. */
function sandboxOf(raw: z.infer<typeof GateConfigSchema>, where: string): SandboxFields {
  const given = (["os_writable", "os_masked", "os_mask_style", "os_escalate_approved"] as const).find((k) => raw[k] !== undefined);
  if (given && raw.os_profile !== "strict") throw new InputError(where, given, "os_profile: strict alongside it");
  if (raw.os_profile !== "strict") return { sandbox: { kind: "default" } };
  let sandbox: SandboxProfile;
  try {
    sandbox = buildStrictProfile({
      ...(raw.os_writable ? { writable: raw.os_writable } : {}),
      ...(raw.os_masked ? { masked: raw.os_masked } : {}),
      ...(raw.os_mask_style ? { maskStyle: raw.os_mask_style } : {}),
      ...(raw.os_escalate_approved ? { escalateApproved: true } : {}),
    });
  } catch (e) {
    throw new InputError(where, raw.os_masked ? "os_masked" : "os_writable", `sandbox paths (${(e as Error).message})`);
  }
  return { sandbox };
}

function digestFile(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex").slice(0, 12);
}

/**
 * Parse `--gates a,b,c` (default: every built-in configuration). Two entries with the same label
 * are bad input: the label is what tells rows and trials apart.
 */
export function selectGateConfigs(spec: string | undefined, dir = CONFIGS_DIR, opts: { cwd?: string; flag?: string } = {}): GateConfig[] {
  const flag = opts.flag ?? "--gates";
  const entries = spec === undefined ? listGateConfigNames(dir) : splitGateEntries(spec, flag);
  const configs: GateConfig[] = [];
  for (const entry of entries) {
    const config = loadGateConfig(entry, dir, opts);
    const twin = configs.find((c) => c.name === config.name);
    if (twin)
      throw new InputError(flag, entry, `a label used once: "${config.name}" also names ${twin.spec === config.name ? "an earlier entry" : `"${twin.spec}"`}`);
    configs.push(config);
  }
  return configs;
}
