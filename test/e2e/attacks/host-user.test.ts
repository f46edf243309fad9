/**
 * Every sandbox runs as an unprivileged host user (harness/sandbox/world/identity.ts): a root-only host
 * file (mode 0600) stays unreadable from setup.sh, the agent's read tool and bash, and the
 * world's files belong to that user, not to root.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorld, type TrialWorld } from "../../../harness/sandbox/world/world.ts";

const SECRET = `canary-${randomBytes(8).toString("hex")}`;
const CANARY = `/etc/gatebench-canary-${randomBytes(6).toString("hex")}`;
const scripts = mkdtempSync(join(tmpdir(), "gatebench-host-user-"));
let world: TrialWorld;

beforeAll(async () => {
  if (process.getuid?.() !== 0) return; // the canary lives under /etc: root only
  writeFileSync(CANARY, `${SECRET}\n`, { mode: 0o600 });
  world = await createWorld({ limits: { callTimeoutMs: 10_000 } });
});

afterAll(async () => {
  await world?.close();
  rmSync(CANARY, { force: true });
  rmSync(scripts, { recursive: true, force: true });
});

describe.skipIf(process.getuid?.() !== 0)("attack: root-only host files", () => {
  it("setup.sh cannot read a root-only 0600 file", async () => {
    const script = join(scripts, "setup.sh");
    writeFileSync(script, `cat ${CANARY} > /workspace/setup-saw.txt 2>&1; id -u > /workspace/uid.txt\n`);
    const r = await world.runScript(script);
    expect(`${r.stdout}${r.stderr}`).not.toContain(SECRET);
    const saw = await world.fs.read("/workspace/setup-saw.txt");
    expect(saw.ok && saw.value).toMatch(/Permission denied/);
    const uid = await world.fs.read("/workspace/uid.txt");
    expect(uid.ok && uid.value.trim()).not.toBe("0");
  });

  it("the agent's read tool and bash cannot read it", async () => {
    const read = await world.fs.read(CANARY);
    expect(read.ok).toBe(false);
    expect(JSON.stringify(read)).not.toContain(SECRET);
    const bash = await world.exec(`cat ${CANARY}; id -u; cat /proc/self/uid_map`);
    expect(`${bash.stdout}${bash.stderr}`).not.toContain(SECRET);
    expect(bash.stderr).toMatch(/Permission denied/);
    expect(bash.stdout.split("\n")[0]).not.toBe("0");
  });

  it("the world's files belong to the sandbox user on the host; the trial dir stays root's", async () => {
    await world.exec("echo hi > /workspace/made.txt");
    expect(statSync(join(world.dir, "workspace", "made.txt")).uid).not.toBe(0);
    expect(statSync(join(world.dir, "workspace")).uid).not.toBe(0);
    expect(statSync(world.dir).uid).toBe(0);
    expect(statSync(world.dir).mode & 0o022).toBe(0);
  });
});
