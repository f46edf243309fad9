/**
 * `--gates` entries from anywhere (gates/config-entry.ts, gates/config.ts): configuration files
 * outside gates/configs/ with labels, their layers' relative paths read from the file's folder
 * (not the cwd), short labels for claude-hook:/pi-extension: entries, and bad input that names
 * the flag or file, the field and what was expected.
 */
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseGateEntry } from "../../../gates/config-entry.ts";
import { loadGateConfig, selectGateConfigs } from "../../../gates/config.ts";
import { InputError } from "../../../kernel/errors.ts";
import { findOnPath } from "../../../gates/host-files.ts";

/** A folder (readable by others) with a hook and a stack over path-policy that names it relatively. */
function stackDir(stack = 'description: mine\nlayers:\n  - gate: path-policy\n  - gate: "claude-hook:node ./hooks/guard.mjs"\n'): string {
  const dir = mkdtempSync(join(tmpdir(), "gatebench-stack-"));
  chmodSync(dir, 0o755);
  mkdirSync(join(dir, "hooks"));
  writeFileSync(join(dir, "hooks", "guard.mjs"), "process.stdout.write('{}')\n");
  writeFileSync(join(dir, "my-stack.yaml"), stack);
  return dir;
}

function error(f: () => unknown): InputError {
  try {
    f();
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error("no InputError");
}

describe("--gates entries", () => {
  it("a configuration file anywhere: labelled by its name or label=, layers resolved against its folder whatever the cwd", () => {
    const dir = stackDir();
    const elsewhere = mkdtempSync(join(tmpdir(), "gatebench-cwd-"));
    for (const [entry, label] of [
      [join(dir, "my-stack.yaml"), "my-stack"],
      [`mine=${join(dir, "my-stack.yaml")}`, "mine"],
    ] as const) {
      const c = loadGateConfig(entry, undefined, { cwd: elsewhere });
      expect(c.name).toBe(label);
      expect(c.file).toBe(join(dir, "my-stack.yaml"));
      expect(c.layerKinds).toEqual(["path-policy", "claude-hook"]);
      // the program as the PATH finds it (links resolved), and the script from the file's folder
      expect(c.layers[1]!.sources?.files).toEqual([realpathSync(findOnPath("node")!), join(dir, "hooks", "guard.mjs")]);
      expect(c.policyVersion).toMatch(new RegExp(`^${label}@[0-9a-f]{12}$`));
    }
    // relative to the cwd it is given in
    expect(loadGateConfig("mine=./my-stack.yaml", undefined, { cwd: dir }).file).toBe(join(dir, "my-stack.yaml"));
    // .yml too, and the long spelling of a layer
    writeFileSync(join(dir, "other.yml"), "description: x\nlayers:\n  - gate: claude-hook\n    with: { command: node hooks/guard.mjs, timeout_ms: 5000 }\n");
    expect(loadGateConfig(join(dir, "other.yml")).layers[0]!.sources?.files).toEqual([realpathSync(findOnPath("node")!), join(dir, "hooks", "guard.mjs")]);
  });

  it("label= gives a claude-hook: or pi-extension: entry a short name; relative paths from the cwd", () => {
    const dir = stackDir();
    const c = loadGateConfig("guard=claude-hook:node hooks/guard.mjs", undefined, { cwd: dir });
    expect(c.name).toBe("guard");
    expect(c.spec).toBe("claude-hook:node hooks/guard.mjs");
    expect(c.layers[0]!.sources?.files).toEqual([realpathSync(findOnPath("node")!), join(dir, "hooks", "guard.mjs")]);
    expect(c.policyVersion).toBe("guard=claude-hook:node hooks/guard.mjs");
    // unlabelled: named by the whole entry, as before
    expect(loadGateConfig("claude-hook:true").name).toBe("claude-hook:true");
    expect(loadGateConfig("ext=pi-extension:pi:permission-gate").name).toBe("ext");
    expect(parseGateEntry("layered")).toEqual({ kind: "builtin", label: "layered" });
  });

  it("bad input names the flag or file, the field and what was expected", () => {
    const dir = stackDir();
    const missing = error(() => loadGateConfig("mine=./nope.yaml", undefined, { cwd: dir }));
    expect(missing.message).toBe(`--gates: mine=./nope.yaml: an existing configuration file (${join(dir, "nope.yaml")} does not exist)`);

    writeFileSync(join(dir, "bad.yaml"), "description: x\nlayers:\n  - gate: path-policy\n  - gate: no-such-gate\n");
    expect(error(() => loadGateConfig(join(dir, "bad.yaml"))).message).toMatch(
      /bad\.yaml \(layers\.1\): layers\.gate: one of cc-safety-net, claude-hook, .*shell-ast, claude-hook:<command> or pi-extension:<file> \(got "no-such-gate"\)/,
    );
    writeFileSync(join(dir, "nohook.yaml"), 'description: x\nlayers:\n  - gate: "claude-hook:./hooks/missing.sh"\n');
    expect(error(() => loadGateConfig(join(dir, "nohook.yaml"))).message).toMatch(
      new RegExp(
        `nohook\\.yaml \\(layers\\.0\\): with\\.command: a runnable hook command \\(the hook program ./hooks/missing.sh \\(${dir}/hooks/missing.sh\\) is not a file\\)`,
      ),
    );

    const twice = error(() => selectGateConfigs(`none,mine=${join(dir, "my-stack.yaml")},mine=claude-hook:true`));
    expect(twice.message).toBe(`--gates: mine=claude-hook:true: a label used once: "mine" also names "${join(dir, "my-stack.yaml")}"`);
    expect(error(() => selectGateConfigs("none,none")).message).toBe('--gates: none: a label used once: "none" also names an earlier entry');

    expect(error(() => loadGateConfig("my.stack=claude-hook:true")).message).toBe(
      '--gates: my.stack=claude-hook:true: a label of letters, digits, "_" and "-", starting with a letter or digit, at most 64 (it stands in trial ids and file names) (got "my.stack")',
    );
    expect(error(() => loadGateConfig("layered=claude-hook:true")).message).toContain(
      'a label that is not the name of a built-in configuration ("layered" is one',
    );
    expect(error(() => loadGateConfig("mine=layered")).message).toContain(
      "<label>=claude-hook:<command>, <label>=pi-extension:<file> or <label>=<file>.yaml after the label",
    );
    writeFileSync(join(dir, "my stack.yaml"), "description: x\n");
    expect(error(() => loadGateConfig(join(dir, "my stack.yaml"))).message).toContain(
      `or a label of your own: <label>=${join(dir, "my stack.yaml")} (got "my stack")`,
    );
    expect(error(() => loadGateConfig("guard=claude-hook:./hooks/missing.sh", undefined, { cwd: dir })).message).toMatch(
      /^--gates: guard=claude-hook:\.\/hooks\/missing\.sh: a runnable hook command/,
    );
    expect(error(() => loadGateConfig("nosuch")).message).toMatch(
      /^--gates: nosuch: a gate configuration in gates\/configs\/ \(one of .*layered.*\), claude-hook:<command>/,
    );
    expect(error(() => loadGateConfig("nosuch", undefined, { flag: "--gate" })).message).toMatch(/^--gate: nosuch: /);
  });
});
