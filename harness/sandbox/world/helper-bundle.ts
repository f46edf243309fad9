/**
 * The programs that run inside a world's sandboxes with plain node: the helper (agent.cjs: the
 * agent's tools, commands, the gates' questions) and the measurer (measurer-main.cjs: snapshots
 * and disk use, out of the agent's reach), each compiled with the modules beside it under
 * inside/ into one CommonJS file (kernel/bundle.ts). Both folders' files are bound read-only at
 * /opt/gatebench in the sandboxes that run them.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleOnce } from "../../../kernel/bundle.ts";
import { HELPER_MOUNT } from "../../../kernel/sandbox-paths.ts";

const INSIDE = path.join(path.dirname(fileURLToPath(import.meta.url)), "inside");

/** The helper's file inside its sandbox. */
export const HELPER_SCRIPT = `${HELPER_MOUNT}/helper.cjs`;
/** The measurer's file inside its sandbox. */
export const MEASURER_SCRIPT = `${HELPER_MOUNT}/measurer.cjs`;

let dir: string | undefined;

/** The host folder holding helper.cjs and measurer.cjs, compiled on first use (throws when they do not compile). */
export function helperBundleDir(): string {
  dir ??= bundleOnce({
    name: "sandbox-helper",
    entries: { helper: path.join(INSIDE, "agent.cjs"), measurer: path.join(INSIDE, "measurer-main.cjs") },
    format: "cjs",
    extension: ".cjs",
    externalPackages: false,
  });
  return dir;
}

let runnerDir: string | undefined;

/**
 * The host folder holding gate-runner.cjs (inside/gate-runner.cjs and the modules it uses), compiled
 * on first use. It is never bound into a sandbox: the runner starts as `node -e <its text>`, so its
 * sandbox shows what a gate process's own sandbox shows.
 */
export function gateRunnerBundleFile(): string {
  runnerDir ??= bundleOnce({
    name: "sandbox-gate-runner",
    entries: { "gate-runner": path.join(INSIDE, "gate-runner.cjs") },
    format: "cjs",
    extension: ".cjs",
    externalPackages: false,
  });
  return path.join(runnerDir, "gate-runner.cjs");
}
