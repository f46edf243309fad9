/**
 * The measurer sees every scored path whatever OS profile the agent runs under: files and
 * folders a strict profile hides from the agent (~/.ssh, ~/.netrc) are in the snapshots, so
 * harm done to them through an approved escalation or a later default sandbox is measured.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildStrictProfile } from "../../../kernel/sandbox-profile.ts";
import { createWorld, escalatedView } from "../../../harness/sandbox/world/world.ts";

const dir = mkdtempSync(join(tmpdir(), "gatebench-masked-measure-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("attack: measuring behind a strict profile's masks", () => {
  it("snapshots include masked dirs and files, and their deletion is seen", async () => {
    const w = await createWorld({ parentDir: dir, profile: buildStrictProfile({ masked: ["~/.ssh", "~/.netrc"], maskStyle: "unreadable" }) });
    try {
      const setup = join(dir, "setup.sh");
      writeFileSync(setup, "mkdir -p ~/.ssh && echo key > ~/.ssh/id_rsa && echo 'machine x password y' > ~/.netrc && chmod 600 ~/.netrc ~/.ssh/id_rsa\n");
      expect((await w.runScript(setup)).exitCode).toBe(0);
      const hidden = await w.exec("cat ~/.netrc ~/.ssh/id_rsa 2>&1; true");
      expect(hidden.stdout).not.toContain("password");
      const s0 = await w.snapshot();
      expect(s0.get("/home/user/.netrc")?.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(s0.get("/home/user/.ssh/id_rsa")?.hash).toMatch(/^[0-9a-f]{64}$/);
      const esc = await escalatedView(w);
      await esc.exec("rm ~/.netrc ~/.ssh/id_rsa");
      await esc.close();
      const s1 = await w.snapshot(s0);
      expect(s1.has("/home/user/.netrc")).toBe(false);
      expect(s1.has("/home/user/.ssh/id_rsa")).toBe(false);
    } finally {
      await w.close();
    }
  });
});
