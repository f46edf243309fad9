/**
 * A Pi extension a gate configuration names (`pi-extension:<file>`, `with: { file: ... }`) as a
 * gate whose code never runs in the harness process. A configuration is input, not harness code:
 * the pull-request workflow evaluates the configuration a pull request changes. So the file is
 * loaded like a project's own extensions (sandboxed.ts): in a process inside each trial's
 * sandbox (the world read-only, no host files beyond what is bound, no network, a clear
 * environment), with the same timeouts and the same fail-closed answers (a process that does not
 * load, dies, sends garbage or overruns blocks the call, and every later one).
 *
 * The file comes with its package (or its own folder: ../host-files.ts, bundleRootOf), bound
 * read-only under /opt/gatebench/hooks/config/, so the modules and npm dependencies it imports
 * load as they do on the host. One process per trial world, started and loaded before the
 * agent's first call (prepare: how long loading takes never counts against a call's time limit);
 * it ends with the world. `preflight` loads it once in a scratch world before a run: a file that
 * does not load is bad input there, not a gate that blocks every call.
 *
 * Pi's shipped examples (`pi:permission-gate`, `pi:protected-paths`) are files of an npm package
 * the lockfile pins: harness code, run in process (gate.ts).
 */
import { realpathSync } from "node:fs";
import path from "node:path";
import { GATE_HOOKS_MOUNT } from "../../kernel/sandbox-paths.ts";
import { bundleRootOf } from "../host-files.ts";
import type { Decision, EnvView, GateContext, GateProcessBind, ProposedCall } from "../types.ts";
import type { IntegrityViolation, PiExtensionGate } from "./integrity.ts";
import { createSandboxedExtensionsGate, makeSandboxedHostDir, type SandboxedExtensionsGate } from "./sandboxed.ts";

/** Where a configuration's extension and its package are seen inside the sandbox. */
export const SANDBOX_CONFIG_DIR = `${GATE_HOOKS_MOUNT}/config`;

export interface ConfiguredExtension {
  /** The folder bound with the file (or the file itself), and where the sandbox shows it. */
  bind: GateProcessBind;
  /** The file's path inside the sandbox. */
  load: string;
  /** The host folder bound with it, when it is a folder: a trial's fingerprint hashes it whole. */
  folder?: string;
}

/** Where `file` (absolute) and what it brings along are bound. */
export function configuredExtension(file: string): ConfiguredExtension {
  const real = realpathSync(file);
  const root = bundleRootOf(real);
  const mount = `${SANDBOX_CONFIG_DIR}/${path.basename(root)}`;
  if (root === real) return { bind: { hostPath: real, sandboxPath: mount }, load: mount };
  return {
    bind: { hostPath: root, sandboxPath: mount },
    load: `${mount}/${path.relative(root, real).split(path.sep).join("/")}`,
    folder: root,
  };
}

/**
 * The gate of one configured extension file (absolute). `name` is the layer's name; `shown` how
 * errors and block reasons name the file.
 */
export function createConfiguredExtensionGate(name: string, file: string, shown: string): PiExtensionGate {
  const ext = configuredExtension(file);
  const violations: IntegrityViolation[] = [];
  const perWorld = new WeakMap<EnvView, SandboxedExtensionsGate>();

  const start = (env: EnvView): SandboxedExtensionsGate =>
    createSandboxedExtensionsGate(name, env, makeSandboxedHostDir(), [{ load: ext.load, name: shown }], { binds: [ext.bind], what: "The extension" });

  /** The trial's extension process: started by prepare() before the agent's first call, or by that call. */
  const inWorld = (env: EnvView): SandboxedExtensionsGate => {
    let gate = perWorld.get(env);
    if (!gate) {
      gate = start(env);
      perWorld.set(env, gate);
    }
    return gate;
  };

  return {
    name,
    sources: { files: [file], packages: [], ...(ext.folder ? { folders: [ext.folder] } : {}) },
    integrityViolations: violations,
    // Nothing loads in the harness process: the errors are known once a world has loaded it (preflight).
    load: async () => [],
    async prepare(env: EnvView): Promise<void> {
      await inWorld(env).load();
    },
    async decide(call: ProposedCall, ctx: GateContext): Promise<Decision> {
      const gate = inWorld(ctx.env);
      const errors = await gate.load();
      // An explicitly configured gate must not silently vanish: a file that did not load blocks.
      if (errors.length > 0) return { kind: "deny", code: "extension_load_error", reason: errors.join("; ") };
      const decision = await gate.decide(call, ctx);
      for (const v of gate.integrityViolations) if (v.toolCallId === call.id && !violations.includes(v)) violations.push(v);
      return decision;
    },
    async preflight(env: EnvView): Promise<string[]> {
      const gate = start(env);
      try {
        const errors = await gate.load();
        return errors.length > 0 ? errors : gate.loaded.length === 0 ? [`${shown}: did not load`] : [];
      } finally {
        gate.close();
      }
    },
  };
}
