/** Real bwrap worlds: containment, hidden tests, timeouts, output caps, snapshots, clones. */
import { spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  checkpointWorld,
  cloneWorld,
  createWorld,
  discardCheckpoint,
  openView,
  WorldError,
  type TrialWorld,
} from "../../../../../harness/sandbox/world/world.ts";

let parentDir: string;
let hostDir: string; // host canaries, outside every trial dir
const worlds: TrialWorld[] = [];

async function world(opts: Parameters<typeof createWorld>[0] = {}): Promise<TrialWorld> {
  const w = await createWorld({ parentDir, ...opts });
  worlds.push(w);
  return w;
}

function script(body: string): string {
  const p = path.join(hostDir, `script-${randomBytes(4).toString("hex")}.sh`);
  fs.writeFileSync(p, body);
  return p;
}

function sha(p: string): string {
  return createHash("sha256").update(fs.readFileSync(p)).digest("hex");
}

function pgrep(marker: string): string {
  const r = spawnSync("pgrep", ["-af", marker], { encoding: "utf-8" });
  // pgrep matches its own spawn's argv only via -f on other processes; filter ourselves out anyway.
  return r.stdout
    .split("\n")
    .filter((l) => l && !l.includes("pgrep"))
    .join("\n");
}

beforeAll(() => {
  parentDir = fs.mkdtempSync(path.join(os.tmpdir(), "gb-world-test-trials-"));
  hostDir = fs.mkdtempSync(path.join(os.tmpdir(), "gb-world-test-host-"));
});

afterEach(async () => {
  for (const w of worlds.splice(0)) await w.close();
});

afterAll(() => {
  fs.rmSync(parentDir, { recursive: true, force: true });
  fs.rmSync(hostDir, { recursive: true, force: true });
});

describe("containment", () => {
  it("rm -rf / and ~, writes to /etc and /usr, and writes/deletes through host-pointing links damage only the world", async () => {
    const canaryDir = path.join(hostDir, "canary-dir");
    fs.mkdirSync(canaryDir);
    const canaryFile = path.join(canaryDir, "secret.txt");
    fs.writeFileSync(canaryFile, "host secret\n");
    fs.writeFileSync(path.join(canaryDir, "other.txt"), "other\n");
    const canaryHash = sha(canaryFile);
    const etcHosts = sha("/etc/hosts");
    const etcList = fs.readdirSync("/etc").sort();

    const w = await world();
    const setup = await w.runScript(
      script(`set -e
mkdir -p src; echo 'code' > src/main.c; echo 'notes' > ~/notes.txt; mkdir -p ~/.ssh; echo key > ~/.ssh/id_rsa
ln -s ${canaryFile} link-file
ln -s ${canaryDir} link-dir
`),
    );
    expect(setup.exitCode, setup.stderr).toBe(0);

    // File tools through the links: inside the sandbox the host path does not exist.
    // Inside, the host path resolves into the world's own /tmp, where it does not exist.
    expect(await w.fs.write("link-file", "pwned\n")).toMatchObject({ ok: false, code: "ENOENT" });
    expect(await w.env.realpath("link-file")).toBeNull();
    // Once the agent creates the parent, the write lands in the world at the same path.
    await w.exec(`mkdir -p ${canaryDir}`);
    expect((await w.fs.write("link-file", "pwned\n")).ok).toBe(true);
    expect(await w.env.readFile(canaryFile)).toBe("pwned\n");
    const ed = await w.fs.edit("link-file", [{ oldText: "host secret", newText: "pwned" }]);
    expect(ed.ok).toBe(false);
    expect(await w.fs.delete("link-dir", true)).toEqual({ ok: true, value: { removed: 1 } });
    expect(await w.env.lstat("link-dir")).toBeNull();
    expect(fs.readFileSync(canaryFile, "utf-8")).toBe("host secret\n");

    const r = await w.exec(
      [
        `echo pwned > link-file; cat ${canaryFile}; ln -s ${canaryDir} l2; rm -rf l2/ ; rm -rf ${canaryDir}`,
        "echo x > /etc/hosts; echo $? ; touch /usr/bin/pwned; echo $?",
        "ls /root; cat /root/.bashrc; cat /etc/shadow | wc -c",
        "rm -rf --no-preserve-root / 2>/dev/null; rm -rf ~ 2>/dev/null; true",
      ].join("\n"),
    );
    expect(r.exitCode).toBe(0);

    // Host intact.
    expect(fs.readFileSync(canaryFile, "utf-8")).toBe("host secret\n");
    expect(sha(canaryFile)).toBe(canaryHash);
    expect(fs.existsSync(path.join(canaryDir, "other.txt"))).toBe(true);
    expect(sha("/etc/hosts")).toBe(etcHosts);
    expect(fs.readdirSync("/etc").sort()).toEqual(etcList);
    expect(fs.existsSync("/usr/bin/pwned")).toBe(false);

    // The damage is recorded in the world itself: only the roots survive.
    const snap = await w.snapshot();
    expect([...snap.keys()].sort()).toEqual(["/home/user", "/tmp", "/workspace"]);

    // A symlink to a host dir inside the trial dir survives cleanup with its target intact.
    await w.exec(`ln -s ${canaryDir} /workspace/to-canary; ln -s ${canaryFile} /home/user/to-file`);
    await w.close();
    expect(fs.existsSync(w.dir)).toBe(false);
    expect(fs.readFileSync(canaryFile, "utf-8")).toBe("host secret\n");
    expect(fs.readdirSync(canaryDir).sort()).toEqual(["other.txt", "secret.txt"]);
  });

  it("has no network, no capabilities and cannot remount the system writable", async () => {
    const w = await world();
    const r = await w.exec(
      "grep CapEff /proc/self/status; mount -o remount,bind,rw /usr 2>&1; echo rc=$?; touch /usr/x 2>&1; cat /sys/class/net/*/operstate 2>/dev/null; ls /sys/class/net 2>/dev/null | tr '\\n' ' '",
    );
    expect(r.stdout).toMatch(/CapEff:\s+0000000000000000/);
    expect(r.stdout).toMatch(/rc=(?!0)\d+/);
    expect(r.stdout).not.toMatch(/eth0/);
    expect(fs.existsSync("/usr/x")).toBe(false);
  });
});

describe("hidden tests", () => {
  it("are invisible during the agent phase and visible in runHiddenTest", async () => {
    const marker = `hidden-marker-${randomBytes(6).toString("hex")}`;
    const testsDir = path.join(hostDir, "tests");
    fs.mkdirSync(testsDir);
    fs.writeFileSync(path.join(testsDir, marker), "x");
    fs.writeFileSync(path.join(testsDir, "test.sh"), `set -e\ntest -f /workspace/done.txt\nls /tests\npwd\n`);

    const w = await world();
    const agent = await w.exec(
      `ls /tests 2>&1; echo "rc=$?"; find / \\( -path /proc -o -path /usr -o -path /sys \\) -prune -o \\( -name test.sh -o -name ${marker} \\) -print 2>/dev/null`,
    );
    expect(agent.stdout).toMatch(/No such file or directory/);
    expect(agent.stdout).not.toContain(marker);
    expect(agent.stdout).not.toContain("test.sh");
    expect(await w.env.lstat("/tests")).toBeNull();

    const failing = await w.runHiddenTest(testsDir);
    expect(failing.exitCode).not.toBe(0);
    await w.fs.write("done.txt", "ok");
    const passing = await w.runHiddenTest(testsDir);
    expect(passing.exitCode, passing.stderr).toBe(0);
    expect(passing.stdout).toContain(marker);
    expect(passing.stdout).toContain("/workspace");
    // Still invisible to the agent afterwards.
    expect(await w.env.lstat("/tests")).toBeNull();
  });

  it("leave a view's helper running: a question another trial asks of the same state meanwhile is answered", async () => {
    const testsDir = path.join(hostDir, "tests-view");
    fs.mkdirSync(testsDir);
    fs.writeFileSync(path.join(testsDir, "test.sh"), "test -d /workspace/many\n");
    const w = await world();
    await w.exec("mkdir many && cd many && seq 1 300 | xargs touch");
    const checkpoint = await checkpointWorld(w);
    const view = await openView(checkpoint, { parentDir });
    try {
      expect(await view.env.lstat("/workspace/many")).not.toBeNull(); // its helper runs
      // A long question in flight while the hidden test of the same state starts.
      const listing = view.env.readdir("/workspace/many");
      const test = await view.runHiddenTest(testsDir);
      expect(test.exitCode, test.stderr).toBe(0);
      expect((await listing)?.length).toBe(300);
    } finally {
      await view.close();
      await discardCheckpoint(checkpoint);
    }
  });
});

describe("limits", () => {
  it("timeout kills a runaway with its background jobs, including ones that left the group", async () => {
    const marker = `gbmark${randomBytes(5).toString("hex")}`;
    // No stopwatch: the background jobs sleep far longer than the test's timeout, so a call that
    // waited for them would fail by that timeout; their death is waited for, not assumed.
    const w = await world({ limits: { callTimeoutMs: 1500 } });
    const r = await w.exec(`sleep 1000 & setsid bash -c 'sleep 1000; echo ${marker}' & yes ${marker} > /dev/null`);
    expect(r.timedOut).toBe(true);
    await expect.poll(() => pgrep(marker), { timeout: 30_000, interval: 100 }).toBe("");

    // A background job of a command that finishes normally dies too (and does not hold the call).
    const bg = await w.exec(`setsid bash -c 'sleep 1000; echo ${marker}2' & echo started`, { timeoutMs: 120_000 });
    expect(bg.stdout).toBe("started\n");
    expect(bg.timedOut).toBe(false);
    await expect.poll(() => pgrep(`${marker}2`), { timeout: 30_000, interval: 100 }).toBe("");
    // The world still works afterwards.
    expect((await w.exec("echo alive")).stdout).toBe("alive\n");
  });

  it("caps output and keeps the tail", async () => {
    const w = await world({ limits: { maxOutputBytes: 1000 } });
    const r = await w.exec("for i in $(seq 1 2000); do echo line$i; done; echo err >&2");
    expect(r.truncated).toBe(true);
    expect(Buffer.byteLength(r.stdout)).toBeLessThanOrEqual(1000);
    expect(r.stdout.endsWith("line2000\n")).toBe(true);
    expect(r.stderr).toBe("err\n");
  });

  it("trial timeout kills the sandbox and later calls fail with trial_timeout", async () => {
    const w = await world({ limits: { trialTimeoutMs: 1200 } });
    const err = await w.exec("sleep 5").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorldError);
    expect((err as WorldError).code).toBe("trial_timeout");
    expect(await w.fs.read("x")).toMatchObject({ ok: false, code: "trial_timeout" });
    await expect(w.env.lstat("/workspace")).rejects.toMatchObject({ code: "trial_timeout" });
    expect(w.trialTimedOut).toBe(true);
    // Harness-phase work still runs, so a timed-out trial's damage can be measured.
    expect((await w.snapshot()).has("/workspace")).toBe(true);
  });

  it("restarts the helper after the agent kills every process", async () => {
    const w = await world();
    await w.fs.write("keep.txt", "kept");
    await w.exec("kill -9 -1").catch(() => undefined);
    expect((await w.exec("cat keep.txt")).stdout).toBe("kept");
    expect(w.helperRestarts).toBe(1);
  });
});

describe("snapshot", () => {
  it("detects content, mode, symlink and type changes and reuses unchanged hashes", async () => {
    const w = await world({ mounts: ["/srv/app2"] });
    const setup = await w.runScript(
      script("echo a > a.txt; echo b > b.txt; echo c > c.txt; ln -s a.txt link; echo d > d; echo s > /srv/app2/s.txt; mkfifo fifo\n"),
    );
    expect(setup.exitCode, setup.stderr).toBe(0);
    const s0 = await w.snapshot();
    expect(s0.get("/workspace/a.txt")).toMatchObject({ type: "file", size: 2 });
    expect(s0.get("/workspace/link")).toMatchObject({ type: "symlink", target: "a.txt" });
    expect(s0.get("/workspace/fifo")?.type).toBe("other");
    expect(s0.get("/srv/app2/s.txt")?.hash).toBe(createHash("sha256").update("s\n").digest("hex"));
    expect(w.lastSnapshotStats?.hashed).toBe(5);

    // Same size, mtime restored: only ctime tells, and the hash must still be recomputed.
    await w.exec("echo X > a.txt; touch -d '2001-01-01' a.txt; chmod 600 b.txt; ln -sfn c.txt link; rm d; mkdir d");
    const s1 = await w.snapshot(s0);
    expect(s1.get("/workspace/a.txt")?.hash).not.toBe(s0.get("/workspace/a.txt")?.hash);
    expect(s1.get("/workspace/b.txt")?.mode).toBe(0o600);
    expect(s0.get("/workspace/b.txt")?.mode).toBe(0o644);
    expect(s1.get("/workspace/link")?.target).toBe("c.txt");
    expect(s1.get("/workspace/d")?.type).toBe("dir");
    expect(s1.get("/workspace/c.txt")).toEqual(s0.get("/workspace/c.txt"));
    // a.txt rehashed; b.txt (chmod changes ctime) rehashed; c.txt and s.txt reused.
    expect(w.lastSnapshotStats).toMatchObject({ hashed: 2, reused: 2 });
  });
});

describe("clone", () => {
  it("copies files and links as they are into an independent world", async () => {
    const w = await world({ mounts: ["/mnt/photos"] });
    await w.runScript(
      script(`echo one > f.txt; mkdir -p ~/.config; echo cfg > ~/.config/x; echo p > /mnt/photos/p.jpg; ln -s ${hostDir} hostlink; chmod 700 f.txt\n`),
    );
    const c = await cloneWorld(w);
    worlds.push(c);
    expect(c.dir).not.toBe(w.dir);
    const a = await w.snapshot();
    const b = await c.snapshot();
    const strip = (s: typeof a) => [...s].map(([p, e]) => [p, e.type, e.mode, e.hash, e.target]);
    expect(strip(b)).toEqual(strip(a));
    expect(b.get("/workspace/hostlink")).toMatchObject({ type: "symlink", target: hostDir });
    await c.exec("rm -rf /workspace/* /mnt/photos/*");
    expect((await w.fs.read("f.txt")).ok).toBe(true);
    expect(await w.env.readdir("/mnt/photos")).toEqual(["p.jpg"]);
  });
});

describe("env view", () => {
  it("answers realpath, lstat, readlink, glob, readFile, readdir inside the sandbox without following links", async () => {
    const w = await world();
    await w.runScript(script("mkdir -p d/sub; echo x > d/a.txt; echo y > d/.hidden; ln -s d/a.txt l; ln -s /etc/passwd p; ln -s nowhere dangling\n"));
    const env = w.env;
    expect(await env.realpath("l")).toBe("/workspace/d/a.txt");
    expect(await env.realpath("dangling")).toBeNull();
    expect(await env.realpath("~")).toBe("/home/user");
    expect(await env.lstat("l")).toMatchObject({ type: "symlink" });
    expect(await env.readlink("/workspace/p")).toBe("/etc/passwd");
    expect(await env.glob("/workspace/d/*")).toEqual(["/workspace/d/a.txt", "/workspace/d/sub"]);
    expect(await env.glob("/workspace/d/.*")).toEqual(["/workspace/d/.hidden"]);
    expect(await env.glob("/workspace/*/a.{txt,md}")).toEqual(["/workspace/d/a.txt"]);
    expect(await env.glob("/workspace/nothing*")).toEqual([]);
    expect(await env.readFile("d/a.txt")).toBe("x\n");
    expect(await env.readFile("l")).toBeNull();
    expect(await env.readFile("p")).toBeNull();
    expect(await env.readdir("d")).toEqual([".hidden", "a.txt", "sub"]);
    expect(await env.readdir("l")).toBeNull();
  });

  it("answers concurrent requests", async () => {
    const w = await world();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => w.fs.write(`f${i}.txt`, String(i)).then(() => w.fs.read(`f${i}.txt`))));
    expect(results.map((r) => (r.ok ? r.value : "ERR"))).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
  });
});

describe("strict profile", () => {
  it("makes home read-only except listed paths and hides secret dirs after setup", async () => {
    const w = await world({ profile: { kind: "strict", writableHomePaths: ["/home/user/project"], maskedPaths: ["/home/user/.ssh", "/home/user/.aws"] } });
    const setup = await w.runScript(script("mkdir -p ~/.ssh ~/project; echo key > ~/.ssh/id_rsa; echo rc > ~/.bashrc\n"));
    expect(setup.exitCode, setup.stderr).toBe(0);
    const r = await w.exec(
      "cat ~/.ssh/id_rsa 2>&1; echo x >> ~/.bashrc 2>&1; echo rc=$?; echo ok > ~/project/f && echo wrote; touch ~/.ssh/new 2>&1; echo ws > /workspace/w && echo wsok",
    );
    expect(r.stdout).toMatch(/No such file/);
    expect(r.stdout).not.toContain("key");
    expect(r.stdout).toMatch(/rc=1/);
    expect(r.stdout).toContain("wrote");
    expect(r.stdout).toContain("wsok");
    expect(w.helperRestarts).toBe(0);
    // The secret is still there in the world (only hidden from the agent phase).
    expect((await w.runScript(script("cat ~/.ssh/id_rsa\n"))).stdout).toBe("key\n");
  });
});

describe("snapshots of a world of task size", () => {
  // inotify reports nothing for a write through a shared writable mapping; below
  // INCREMENTAL_MIN_ENTRIES paths every snapshot walks the world and sees it by mtime and ctime.
  const MMAP_WRITE = `python3 -c "
import mmap
with open('data.bin', 'r+b') as f:
    m = mmap.mmap(f.fileno(), 0)
    m[0:4] = b'GONE'
    m.flush()
    m.close()
"`;

  it("walks the whole world, so a write through mmap is seen", async () => {
    const w = await world();
    expect((await w.exec("head -c 4096 /dev/zero | tr '\\\\0' x > data.bin")).exitCode).toBe(0);
    const before = await w.snapshot();
    const r = await w.exec(MMAP_WRITE);
    expect(r.exitCode, r.stderr).toBe(0);
    const after = await w.snapshot(before);
    expect(w.lastSnapshotStats?.incremental).not.toBe(true);
    expect(after.get("/workspace/data.bin")?.hash).not.toBe(before.get("/workspace/data.bin")?.hash);
  });

  it("the incremental answer (forced for any size) misses that write: the reason for the threshold", async () => {
    const w = await world({ incrementalSnapshotsFrom: 0 });
    expect((await w.exec("head -c 4096 /dev/zero | tr '\\\\0' x > data.bin")).exitCode).toBe(0);
    const before = await w.snapshot();
    expect((await w.exec(MMAP_WRITE)).exitCode).toBe(0);
    const after = await w.snapshot(before);
    expect(w.lastSnapshotStats?.incremental).toBe(true);
    expect(after.get("/workspace/data.bin")?.hash).toBe(before.get("/workspace/data.bin")?.hash);
  });
});
