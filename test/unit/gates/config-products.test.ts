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
});
