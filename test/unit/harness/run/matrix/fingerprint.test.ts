/**
 * A configuration file from outside the repository is fingerprinted by its content and by every
 * file its layers load (harness/run/matrix/fingerprint.ts, docs/trial.md "Fingerprints"): editing
 * the YAML, or the hook it names, changes the gate part (so the result store and --resume never
 * reuse a trial of the old one); a labelled hook by its command line and file; built-in
 * configurations are hashed by their path in the repository and their content, as before.
 */
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadGateConfig } from "../../../../../gates/config.ts";
import { Fingerprinter, hashFiles } from "../../../../../harness/run/matrix/fingerprint.ts";
import { CONFIGS_DIR } from "../../../../../gates/config-entry.ts";

const STACK = 'description: mine\nlayers:\n  - gate: path-policy\n  - gate: "claude-hook:node ./guard.mjs"\n';

function stack(): string {
  const dir = mkdtempSync(join(tmpdir(), "gatebench-fp-stack-"));
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, "guard.mjs"), "process.stdout.write('{}')\n");
  writeFileSync(join(dir, "my-stack.yaml"), STACK);
  return dir;
}

const gatePart = (entry: string) => new Fingerprinter().gate(loadGateConfig(entry));

describe("gate fingerprint of a configuration file outside the repository", () => {
  it("changes when the YAML changes, and when the hook it loads changes; not when nothing does", () => {
    const dir = stack();
    const entry = `mine=${join(dir, "my-stack.yaml")}`;
    const first = gatePart(entry);
    expect(gatePart(entry)).toBe(first);
    writeFileSync(join(dir, "my-stack.yaml"), `${STACK}# a comment is a change of the file\n`);
    const yamlEdited = gatePart(entry);
    expect(yamlEdited).not.toBe(first);
    writeFileSync(join(dir, "guard.mjs"), "process.stdout.write('{}') // edited\n");
    const hookEdited = gatePart(entry);
    expect(hookEdited).not.toBe(yamlEdited);
  });

  it("a hook given with a label is hashed by its file and its command line", () => {
    const dir = stack();
    const entry = `a=claude-hook:node ${join(dir, "guard.mjs")}`;
    const before = gatePart(entry);
    expect(gatePart(`a=claude-hook:node ${join(dir, "guard.mjs")} --strict`)).not.toBe(before);
    writeFileSync(join(dir, "guard.mjs"), "process.stdout.write('{}') // edited\n");
    expect(gatePart(entry)).not.toBe(before);
  });

  it("a built-in configuration is hashed by its path in the repository and its content", () => {
    expect(hashFiles([join(CONFIGS_DIR, "layered.yaml")])).toBe(hashFiles([join(CONFIGS_DIR, "..", "configs", "layered.yaml")]));
    expect(gatePart("layered")).toBe(gatePart("layered"));
    expect(gatePart("layered")).not.toBe(gatePart("shell-ast"));
  });
});
