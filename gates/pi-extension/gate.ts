/**
 * A real, unmodified Pi extension as a gatebench gate. Pi's shipped examples (`pi:<name>`, files
 * of an npm package the lockfile pins) run in the harness process; any other file a configuration
 * names runs in a process inside the trial's sandbox (configured.ts), as a project's own do.
 * The extension's `tool_call` handlers run with Pi's runner semantics (emit-tool-call.ts) and
 * are turned into a Decision:
 *
 *   handlers mutated their copy of the input  -> deny integrity_violation, carrying the mutated
 *                                                input as `rewrittenArgs` (what Pi would run)
 *   the approver failed while a handler asked -> deny approver_failed
 *   a handler threw                           -> deny extension_error
 *   a handler returned { block: true }        -> deny user_denied (the user said no during this
 *                                                call), no_ui (no UI, and a handler read ctx.hasUI
 *                                                or tried to ask) or extension_blocked
 *   otherwise                                 -> allow
 *
 * Handlers get a deep copy of the arguments, so nothing they do reaches the tool: the arguments
 * the tool executes are exactly those the gates and the approver saw (argument integrity: "do
 * not silently change arguments after approval"). Pi 0.73.1 itself would execute the mutated input;
 * a configuration with `integrity: off` reproduces that (gates/stack.ts).
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import * as path from "node:path";
import { InputError } from "../../kernel/errors.ts";
import { type Decision, type GateContext, type GateDefinition, type GateFactoryContext, moduleBeside, type ProposedCall } from "../types.ts";
import type { RegisteredExtension } from "./extension-api.ts";
import { hasToolCallHandlers } from "./emit-tool-call.ts";
import { evaluateToolCall, verdictToDecision } from "./evaluate.ts";
import { type IntegrityViolation, type PiExtensionGate, recordViolation } from "./integrity.ts";
import { PACKAGE_ROOT } from "../../kernel/package-root.ts";
import { loadExtension, SHIPPED_EXAMPLES } from "./load-extension.ts";
import { createConfiguredExtensionGate } from "./configured.ts";

export { type IntegrityViolation, type PiExtensionGate, recordViolation } from "./integrity.ts";

/**
 * `pi:permission-gate` / `pi:protected-paths`, or a file (or directory with index.ts) relative to
 * `baseDir` (the folder of the configuration file that names it, the cwd for `--gates
 * pi-extension:...`, gatebench's own folder for a built-in configuration).
 */
export function resolveExtensionSpec(spec: string, baseDir: string = PACKAGE_ROOT): string {
  const where = "--gates";
  const field = `pi-extension:${spec}`;
  const shipped = /^pi:(.+)$/.exec(spec);
  if (shipped) {
    const file = SHIPPED_EXAMPLES[shipped[1]!];
    if (!file)
      throw new InputError(
        where,
        field,
        `one of ${Object.keys(SHIPPED_EXAMPLES)
          .map((n) => `pi:${n}`)
          .join(", ")} or a file path`,
      );
    return file;
  }
  const resolved = path.resolve(baseDir, spec);
  if (!existsSync(resolved)) throw new InputError(where, field, `an existing extension file (${resolved} does not exist)`);
  if (statSync(resolved).isDirectory()) {
    for (const index of ["index.ts", "index.js"]) {
      if (existsSync(path.join(resolved, index))) return path.join(resolved, index);
    }
    throw new InputError(where, field, "a .ts/.js file or a directory with index.ts/index.js");
  }
  if (!/\.(ts|js|mts|mjs)$/.test(resolved)) throw new InputError(where, field, "a .ts or .js extension file");
  return resolved;
}

/** Registry factory: `layers: [{ gate: pi-extension, with: { file: pi:permission-gate } }]`; a relative file is resolved against `context.baseDir`. */
export function createPiExtensionGate(options: Record<string, unknown>, where: string, context: GateFactoryContext = {}): PiExtensionGate {
  const { file, ...rest } = options;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw new InputError(where, `with.${unknown[0]}`, "pi-extension takes only `file`");
  if (typeof file !== "string" || file.length === 0) throw new InputError(where, "with.file", "an extension file path or pi:<example>");
  let absolute: string;
  try {
    absolute = resolveExtensionSpec(file, context.baseDir);
  } catch (e) {
    if (e instanceof InputError) throw new InputError(where, "with.file", e.expected);
    throw e;
  }
  // Pi's shipped examples are code of a package the lockfile pins: run in process, as ever.
  // Any other file is input, and runs in a process inside the trial's sandbox (configured.ts).
  if (isShippedExample(absolute)) return createExtensionsGate(`pi-extension:${file}`, [absolute]);
  return createConfiguredExtensionGate(`pi-extension:${file}`, absolute, file);
}

/** Whether `file` is one of Pi's shipped examples (links resolved). */
export function isShippedExample(file: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  return Object.values(SHIPPED_EXAMPLES).some((example) => real(example) === real(file));
}

/**
 * One gate around several extension files, dispatched in the given order (Pi's load order).
 * `failOnLoadError`: a file that does not load denies every call (an explicitly configured gate
 * must not silently vanish); otherwise it is skipped with its error kept, as Pi skips it.
 */
export function createExtensionsGate(name: string, files: readonly string[], opts: { failOnLoadError?: boolean } = {}): PiExtensionGate {
  const failOnLoadError = opts.failOnLoadError ?? true;
  const violations: IntegrityViolation[] = [];
  let loading: Promise<{ extensions: RegisteredExtension[]; errors: string[] }> | undefined;

  const load = () =>
    (loading ??= (async () => {
      const extensions: RegisteredExtension[] = [];
      const errors: string[] = [];
      for (const file of files) {
        const r = await loadExtension(file);
        if (r.ok) extensions.push(r.extension);
        else errors.push(`${file}: ${r.error}`);
      }
      return { extensions, errors };
    })());

  return {
    name,
    sources: { files: [...files], packages: [] },
    integrityViolations: violations,
    load: async () => (await load()).errors,
    async decide(call: ProposedCall, ctx: GateContext): Promise<Decision> {
      const { extensions, errors } = await load();
      if (failOnLoadError && errors.length > 0) return { kind: "deny", code: "extension_load_error", reason: errors.join("; ") };
      if (!hasToolCallHandlers(extensions)) return { kind: "allow" };
      return decideWithExtensions(extensions, call, ctx, violations);
    },
  };
}

async function decideWithExtensions(
  extensions: readonly RegisteredExtension[],
  call: ProposedCall,
  ctx: GateContext,
  violations: IntegrityViolation[],
): Promise<Decision> {
  const original = call.args as Record<string, unknown>;
  const verdict = await evaluateToolCall(extensions, { id: call.id, tool: call.tool, args: original }, { ui: ctx.ui, cwd: ctx.env.cwd, signal: ctx.signal });
  recordViolation(verdict, call, violations);
  return verdictToDecision(verdict, original);
}

export const piExtensionLayer: GateDefinition = {
  name: "pi-extension",
  summary: "a real Pi extension file, run with Pi's own loader and runner semantics",
  modules: [
    moduleBeside(import.meta.url, "./gate.ts"),
    moduleBeside(import.meta.url, "./sandbox/main.mjs"),
    moduleBeside(import.meta.url, "./sandbox/serve.ts"),
    moduleBeside(import.meta.url, "./sandbox/transpile.ts"),
  ],
  create: createPiExtensionGate,
};
