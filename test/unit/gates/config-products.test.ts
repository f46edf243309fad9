import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadGateConfig } from "../../../gates/config.ts";

const gate = (name: string) => loadGateConfig(name);

describe("product gate configurations", () => {
  const dir = mkdtempSync(join(tmpdir(), "gatebench-product-configs-"));
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };

  it("carry the product, its permission mode and its settings", () => {
    expect(gate("claude-code-accept-edits").product).toEqual({ name: "claude-code", permissionMode: "acceptEdits", settings: {} });
    expect(gate("claude-code-bypass").product?.permissionMode).toBe("bypassPermissions");
    expect(gate("claude-code-plan").product?.permissionMode).toBe("plan");
    const hooks = gate("claude-code-cc-safety-net").product?.settings.hooks as Record<string, unknown>;
    expect(JSON.stringify(hooks)).toMatch(/cc-safety-net/);
    expect(gate("none").product).toBeUndefined();
  });

  it("a product configuration with gatebench layers, or an unknown mode or product, is bad input naming the field", () => {
    const layered = file("mixed.yaml", "description: x\nproduct:\n  name: claude-code\nlayers:\n  - gate: path-policy\n");
    expect(() => loadGateConfig(layered)).toThrow(/product/);
    const mode = file("mode.yaml", "description: x\nproduct:\n  name: claude-code\n  permission_mode: yolo\n");
    expect(() => loadGateConfig(mode)).toThrow(/permission_mode/);
    const product = file("product.yaml", "description: x\nproduct:\n  name: emacs\n");
    expect(() => loadGateConfig(product)).toThrow(/product.name/);
  });

  it("a Codex configuration carries its sandbox mode and its config values, the approval policy among them", () => {
    expect(gate("codex-read-only").product).toEqual({ name: "codex", permissionMode: "read-only", settings: { approval_policy: "on-request" } });
    expect(gate("codex-workspace-write").product?.permissionMode).toBe("workspace-write");
    expect(gate("codex-full-auto").product).toEqual({ name: "codex", permissionMode: "danger-full-access", settings: { approval_policy: "never" } });
    const own = file(
      "codex-own.yaml",
      "description: x\nproduct:\n  name: codex\n  sandbox: workspace-write\n  approval_policy: untrusted\n  config:\n    sandbox_workspace_write: { network_access: false }\n",
    );
    expect(loadGateConfig(own).product?.settings).toEqual({ sandbox_workspace_write: { network_access: false }, approval_policy: "untrusted" });
  });

  it("a Codex configuration without its sandbox mode, or with Claude Code's fields, is bad input naming the field", () => {
    expect(() => loadGateConfig(file("nosandbox.yaml", "description: x\nproduct:\n  name: codex\n  approval_policy: never\n"))).toThrow(/product.sandbox/);
    expect(() =>
      loadGateConfig(
        file("mixed-fields.yaml", "description: x\nproduct:\n  name: codex\n  sandbox: read-only\n  approval_policy: never\n  permission_mode: plan\n"),
      ),
    ).toThrow(/permission_mode/);
    expect(() =>
      loadGateConfig(file("badpolicy.yaml", "description: x\nproduct:\n  name: codex\n  sandbox: read-only\n  approval_policy: sometimes\n")),
    ).toThrow(/approval_policy/);
  });

  it("a Gemini CLI configuration carries its approval mode, its settings and its policy rules", () => {
    expect(gate("gemini-cli-default").product).toEqual({ name: "gemini-cli", permissionMode: "default", settings: { settings: {}, policy: [] } });
    expect(gate("gemini-cli-auto-edit").product?.permissionMode).toBe("auto_edit");
    expect(gate("gemini-cli-yolo").product?.permissionMode).toBe("yolo");
    const policy = gate("gemini-cli-yolo-policy").product?.settings.policy as { toolName: string; commandPrefix: string[]; decision: string }[];
    expect(policy[0]).toMatchObject({ toolName: "run_shell_command", decision: "deny" });
    expect(policy[0]!.commandPrefix).toContain("rm -rf");
    const own = file(
      "gemini-own.yaml",
      "description: x\nproduct:\n  name: gemini-cli\n  approval_mode: auto_edit\n  settings:\n    tools: { sandbox: false }\n  policy:\n    - { toolName: write_file, decision: ask_user, priority: 10, modes: [autoEdit] }\n",
    );
    expect(loadGateConfig(own).product?.settings).toEqual({
      settings: { tools: { sandbox: false } },
      policy: [{ toolName: "write_file", decision: "ask_user", priority: 10, modes: ["autoEdit"] }],
    });
  });

  it("a Gemini CLI configuration with an unknown mode, a rule field it does not have, or a priority out of range is bad input naming the field", () => {
    const bad = (name: string, body: string) => () => loadGateConfig(file(name, `description: x\nproduct:\n  name: gemini-cli\n${body}`));
    expect(bad("gmode.yaml", "  approval_mode: trusting\n")).toThrow(/approval_mode/);
    expect(bad("gnomode.yaml", "  settings: {}\n")).toThrow(/product.approval_mode/);
    expect(bad("gfield.yaml", "  approval_mode: yolo\n  policy:\n    - { toolName: x, decision: deny, priority: 1, verdict: no }\n")).toThrow(/verdict/);
    expect(bad("gprio.yaml", "  approval_mode: yolo\n  policy:\n    - { toolName: x, decision: deny, priority: 1000 }\n")).toThrow(/priority/);
    expect(bad("gdecision.yaml", "  approval_mode: yolo\n  policy:\n    - { toolName: x, decision: maybe, priority: 1 }\n")).toThrow(/decision/);
  });
});
