/**
 * Project trust resolution, as a flowchart:
 *
 *   no protected resources            -> trusted
 *   saved decision (dir or nearest
 *   ancestor)                         -> that decision
 *   mode always / never               -> trusted / untrusted
 *   mode ask, no UI (headless)        -> untrusted
 *   mode ask, UI                      -> ask the user; remember the answer for this directory
 *
 * Pi 1.6's run-level override and pre-trust `project_trust` extension hooks have no gatebench
 * counterpart: configurations set the mode, and a project's own extensions are never consulted
 * about their own trust. A UI that fails (rejects) counts as "no": untrusted, not remembered.
 */
import { posix } from "node:path";
import type { GateUI } from "../types.ts";
import type { ProjectResource } from "./discover.ts";
import { normaliseDir, type TrustStore } from "./trust-store.ts";

export type TrustMode = "always" | "never" | "ask";

export type TrustSource = "no_resources" | "saved" | "default" | "user" | "no_ui" | "ui_failed";

export interface TrustResolution {
  status: "trusted" | "untrusted";
  source: TrustSource;
  /** The directory whose saved decision applied (source "saved"). */
  savedFor?: string;
}

export async function resolveTrust(
  mode: TrustMode,
  cwd: string,
  store: TrustStore,
  ui: GateUI,
  resources: readonly ProjectResource[],
): Promise<TrustResolution> {
  const dir = normaliseDir(cwd);
  if (resources.length === 0) return { status: "trusted", source: "no_resources" };
  const saved = store.lookup(dir);
  if (saved) return { status: saved.trusted ? "trusted" : "untrusted", source: "saved", savedFor: saved.dir };
  if (mode === "always") return { status: "trusted", source: "default" };
  if (mode === "never") return { status: "untrusted", source: "default" };
  if (!ui.hasUI) return { status: "untrusted", source: "no_ui" };
  let yes: boolean;
  try {
    yes = (await ui.confirm(trustQuestion(dir, resources))) === true;
  } catch {
    return { status: "untrusted", source: "ui_failed" };
  }
  store.set(dir, yes);
  return { status: yes ? "trusted" : "untrusted", source: "user" };
}

export function trustQuestion(dir: string, resources: readonly ProjectResource[]): { title: string; description: string; resources: string[]; risk: "high" } {
  const lines = resources.map((r) => `  - ${posix.relative(dir, r.path) || r.path} (${r.kind})`);
  return {
    title: "Trust this project?",
    description:
      `The project in ${dir} ships resources that change the agent's settings, code and prompts:\n` +
      `${lines.join("\n")}\n` +
      "Trusting it loads them; project extensions run as code in the agent process. Trust this project?",
    resources: resources.map((r) => r.path),
    risk: "high",
  };
}
