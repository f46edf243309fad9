import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadGateConfig } from "../../../gates/config.ts";
import { InputError } from "../../../kernel/errors.ts";

function configDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "gatebench-configs-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, `${name}.yaml`), text);
  return dir;
}

describe("gate configuration: resolved sandbox profile", () => {
  it("carries the shipped sandbox configuration as a strict profile", () => {
    const config = loadGateConfig("sandbox");
    expect(config.sandbox.kind).toBe("strict");
    if (config.sandbox.kind !== "strict") return;
    expect(config.sandbox.writableHomePaths).toEqual([]);
    expect(config.sandbox.maskedPaths).toEqual(expect.arrayContaining(["/home/user/.ssh", "/home/user/.aws"]));
    expect(config.sandbox.maskedNames).toEqual(expect.arrayContaining([".env", ".env.*.local"]));
    expect(config.sandbox.maskStyle).toBe("unreadable");
    expect(config.sandbox.escalateApproved).toBeUndefined();
  });

  it("gives the default profile to configurations without os_profile and to --gates one-layer stacks", () => {
    expect(loadGateConfig("none").sandbox).toEqual({ kind: "default" });
    expect(loadGateConfig("claude-hook:true").sandbox).toEqual({ kind: "default" });
  });

  it("builds writable paths, masks and escalation from the os_* options", () => {
    const dir = configDir({
      s: "description: x\nos_profile: strict\nos_writable: [~/.cache]\nos_masked: [~/.ssh, /workspace/secret.json, .env]\nos_escalate_approved: true\n",
    });
    expect(loadGateConfig("s", dir).sandbox).toEqual({
      kind: "strict",
      writableHomePaths: ["/home/user/.cache"],
      maskedPaths: ["/home/user/.ssh"],
      maskedFiles: ["/home/user/.ssh", "/workspace/secret.json"],
      maskedNames: [".env"],
      escalateApproved: true,
    });
  });

  it("rejects os_* options without os_profile: strict, naming the file and the field", () => {
    const dir = configDir({ d: "description: x\nos_masked: [~/.ssh]\n" });
    expect(() => loadGateConfig("d", dir)).toThrow(InputError);
    expect(() => loadGateConfig("d", dir)).toThrow(/gates\/configs\/d\.yaml: os_masked: os_profile: strict/);
  });

  it("rejects sandbox paths the profile cannot use", () => {
    const dir = configDir({
      w: "description: x\nos_profile: strict\nos_writable: [/etc]\n",
      m: "description: x\nos_profile: strict\nos_masked: [/workspace]\n",
    });
    expect(() => loadGateConfig("w", dir)).toThrow(/os_writable: sandbox paths \(writable path \/etc must lie under \/home\/user\)/);
    expect(() => loadGateConfig("m", dir)).toThrow(/os_masked: sandbox paths \(cannot mask a whole root/);
  });
});
