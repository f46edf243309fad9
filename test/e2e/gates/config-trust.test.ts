/**
 * The trust configurations: `integrity` is validated and defaults to enforce; pi-default-trust is
 * Pi 0.73.1 as shipped; only a configuration that can ask someone runs once per approver.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadGateConfig } from "../../../gates/config.ts";
import { InputError } from "../../../kernel/errors.ts";
import { needsApprover } from "../../../harness/run/matrix/matrix.ts";

function configDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "gb-trust-configs-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, `${name}.yaml`), text);
  return dir;
}

describe("trust gate configurations", () => {
  it("pi-default-trust: no layers, projects trusted without asking, integrity off", () => {
    const c = loadGateConfig("pi-default-trust");
    expect(c).toMatchObject({ projectTrust: "always", integrity: "off", layers: [] });
  });

  it("trust-always, trust-never and trust-ask enforce integrity", () => {
    for (const name of ["trust-always", "trust-never", "trust-ask"]) expect(loadGateConfig(name).integrity, name).toBe("enforce");
  });

  it("integrity defaults to enforce, accepts off, and rejects anything else naming the file and field", () => {
    const dir = configDir({
      plain: "description: d\nlayers: []\n",
      off: "description: d\nintegrity: off\nlayers: []\n",
      bad: "description: d\nintegrity: maybe\nlayers: []\n",
      boolean: "description: d\nintegrity: false\nlayers: []\n",
    });
    expect(loadGateConfig("plain", dir).integrity).toBe("enforce");
    expect(loadGateConfig("off", dir).integrity).toBe("off");
    for (const name of ["bad", "boolean"]) {
      let error: unknown;
      try {
        loadGateConfig(name, dir);
      } catch (e) {
        error = e;
      }
      expect(error, name).toBeInstanceOf(InputError);
      expect((error as InputError).field).toBe("integrity");
      expect((error as InputError).file).toContain(`${name}.yaml`);
    }
  });

  it("runs once per approver only when someone can be asked (layers, or project_trust: ask)", () => {
    expect(needsApprover(loadGateConfig("pi-default-trust"))).toBe(false);
    expect(needsApprover(loadGateConfig("none"))).toBe(false);
    expect(needsApprover(loadGateConfig("trust-always"))).toBe(true);
    const dir = configDir({
      ask: "description: d\nproject_trust: ask\nlayers: []\n",
      always: "description: d\nproject_trust: always\nlayers: []\n",
      never: "description: d\nproject_trust: never\nlayers: []\n",
    });
    expect(needsApprover(loadGateConfig("ask", dir))).toBe(true);
    expect(needsApprover(loadGateConfig("always", dir))).toBe(false);
    expect(needsApprover(loadGateConfig("never", dir))).toBe(false);
  });
});
