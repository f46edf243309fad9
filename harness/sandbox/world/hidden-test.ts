/**
 * What the hidden test's sandbox gets on top of the default one: a git that runs no program the
 * world could have configured, and the comparison that tells whether the world changed while
 * the test ran (it runs on a copy, so any change to the world itself is tampering).
 */
import { gitConfigEnv, SANDBOX_GIT_CONFIG } from "./bwrap-args.ts";
import type { Snapshot } from "./types.ts";

/**
 * Environment of the hidden test. The world's own git configuration (.git/config) is the agent's
 * work and cannot be switched off as a file, so each key that makes git start a program is
 * overridden through GIT_CONFIG_COUNT/KEY/VALUE, which wins over every config file:
 * - GIT_CONFIG_NOSYSTEM, GIT_CONFIG_GLOBAL=/dev/null: neither the host's /etc/gitconfig nor the
 *   world's ~/.gitconfig is read.
 * - core.hooksPath=/dev/null: no hook (.git/hooks/* or a configured hooks dir) runs.
 * - core.fsmonitor=false: no fsmonitor program runs on `git status`/`diff`.
 * - core.pager=cat, GIT_PAGER/PAGER=cat: no pager program; core.editor/sequence.editor=true,
 *   GIT_EDITOR=true: no editor.
 * - diff.external= (empty): a configured external diff cannot run; git reports an error instead,
 *   so the test fails rather than being fooled.
 * - core.sshCommand=false, core.askPass=true, credential.helper= (empty list),
 *   GIT_TERMINAL_PROMPT=0: no ssh, askpass or credential program (the sandbox has no network).
 * - protocol.ext.allow=never: the `ext::` transport, which runs a command, is refused; local
 *   clones (file transport) keep working.
 * - commit.gpgSign/tag.gpgSign=false, gpg.program=false: no signing program.
 * - core.attributesFile=/dev/null, GIT_ATTR_NOSYSTEM=1: no attribute file outside the repository.
 * Not covered: filter and textconv drivers named by the repository's own .gitattributes with a
 * command in .git/config (their names are the world's choice); a change they make to the world
 * is caught by the tamper check, and the test runs on a copy.
 */
const GIT_OVERRIDES: [string, string][] = [
  ["core.hooksPath", "/dev/null"],
  ["core.fsmonitor", "false"],
  ["core.pager", "cat"],
  ["core.editor", "true"],
  ["sequence.editor", "true"],
  ["diff.external", ""],
  ["core.sshCommand", "false"],
  ["core.askPass", "true"],
  ["credential.helper", ""],
  ["protocol.ext.allow", "never"],
  ["commit.gpgSign", "false"],
  ["tag.gpgSign", "false"],
  ["gpg.program", "false"],
  ["core.attributesFile", "/dev/null"],
];

export const HIDDEN_TEST_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_ATTR_NOSYSTEM: "1",
  GIT_TERMINAL_PROMPT: "0",
  GIT_PAGER: "cat",
  PAGER: "cat",
  GIT_EDITOR: "true",
  // the settings every sandbox has, then these
  ...gitConfigEnv([...SANDBOX_GIT_CONFIG, ...GIT_OVERRIDES]),
};

export interface TamperReport {
  /** True when the world changed while the hidden test ran: its result is not to be trusted. */
  tampered: boolean;
  /** "<kind> <path>" of each change, at most 50. */
  changes: string[];
}

/** Content-level changes between two snapshots of the same world (times and inode numbers ignored). */
export function tamperReport(before: Snapshot, after: Snapshot): TamperReport {
  const changes: string[] = [];
  for (const [p, a] of after) {
    const b = before.get(p);
    if (!b) changes.push(`created ${p}`);
    else if (a.type !== b.type || a.size !== b.size || a.mode !== b.mode || a.hash !== b.hash || a.target !== b.target) changes.push(`modified ${p}`);
  }
  for (const p of before.keys()) if (!after.has(p)) changes.push(`deleted ${p}`);
  changes.sort();
  return { tampered: changes.length > 0, changes: changes.slice(0, 50) };
}
