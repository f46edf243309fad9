/**
 * Host processes started through the spawner (harness/sandbox/world/spawner.ts): streams reach the
 * runner whole and apart, exits and signals are reported after the output, a process that cannot
 * start says why, kill() ends the whole group (even before the pid is known), children run with
 * an empty environment as the user asked for, a group ends with its leader and is never signalled
 * after, and when the spawner dies its processes end and settle and the next spawn starts a new one.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { spawnDetached, spawnerPid, type SpawnedProcess } from "../../../../../harness/sandbox/world/spawner.ts";

function collect(p: SpawnedProcess): { out: () => string; err: () => string } {
  let out = "";
  let err = "";
  p.stdout.on("data", (b: Buffer) => {
    out += b.toString("utf-8");
  });
  p.stderr.on("data", (b: Buffer) => {
    err += b.toString("utf-8");
  });
  return { out: () => out, err: () => err };
}

/** The pid arrives with the spawner's report, which may come after the child's first output. */
async function pidOf(p: SpawnedProcess): Promise<number> {
  while (p.pid === undefined) await new Promise((r) => setTimeout(r, 5));
  return p.pid;
}

/** How long a process told to die may take to be gone: generous, a loaded machine is slow. */
const DEATH = { timeout: 30_000, interval: 20 };

/** Running (a killed process waiting to be reaped counts as gone). */
const alive = (pid: number): boolean => {
  try {
    return !/^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, "utf-8"));
  } catch {
    return false;
  }
};

describe("spawnDetached", () => {
  it("passes stdin in and stdout and stderr back apart, and reports the exit code after the output", async () => {
    const p = spawnDetached("/bin/sh", ["-c", "cat; echo to-err >&2; head -c 1000000 /dev/zero | tr '\\0' x; exit 7"], { stdin: true });
    const s = collect(p);
    p.stdin!.end("from stdin\n");
    expect(await p.outcome).toEqual({ exitCode: 7 });
    expect(s.out().startsWith("from stdin\nxxx")).toBe(true);
    expect(s.out().length).toBe("from stdin\n".length + 1_000_000);
    expect(s.err()).toBe("to-err\n");
  });

  it("gives the child /dev/null as stdin when not asked for, and an empty environment", async () => {
    const p = spawnDetached("/bin/sh", ["-c", "cat; /usr/bin/env"], { stdin: false });
    const s = collect(p);
    expect(p.stdin).toBeNull();
    expect(await p.outcome).toEqual({ exitCode: 0 });
    // sh itself sets PWD; nothing of the runner's environment gets through
    expect(
      s
        .out()
        .split("\n")
        .filter((l) => l && !l.startsWith("PWD=")),
    ).toEqual([]);
  });

  it("says why a process could not start", async () => {
    const p = spawnDetached("/nonexistent/program", [], { stdin: true });
    const o = await p.outcome;
    expect(o.startError).toMatch(/ENOENT/);
    expect(o.exitCode).toBeUndefined();
  });

  it("starts the child in its own process group, not as the runner's child, and kill() ends the group", async () => {
    const p = spawnDetached("/bin/sh", ["-c", "sleep 300 & echo $! $$ $PPID; wait"], { stdin: false });
    let line = "";
    await new Promise<void>((resolve) =>
      p.stdout.on("data", (b: Buffer) => {
        line += b.toString();
        if (line.includes("\n")) resolve();
      }),
    );
    const [sleeper, shell, parent] = line.trim().split(" ").map(Number);
    expect(shell).toBe(await pidOf(p));
    expect(parent).toBe(spawnerPid());
    expect(parent).not.toBe(process.pid);
    const pgid = Number(
      execFileSync("/bin/ps", ["-o", "pgid=", "-p", String(sleeper)])
        .toString()
        .trim(),
    );
    expect(pgid).toBe(p.pid);
    p.kill();
    expect(await p.outcome).toEqual({ signal: "SIGKILL" });
    await expect.poll(() => alive(sleeper!), DEATH).toBe(false);
  });

  it("kills a process asked to die before its pid was known", async () => {
    const p = spawnDetached("/bin/sleep", ["300"], { stdin: false });
    p.kill();
    expect(await p.outcome).toEqual({ signal: "SIGKILL" });
  });

  it("writes written stdin only once the child runs (none of it is lost to the spawner)", async () => {
    const ps = Array.from({ length: 40 }, (_, i) => {
      const p = spawnDetached("/bin/cat", [], { stdin: true });
      const s = collect(p);
      p.stdin!.write(`line ${i}\n`);
      p.stdin!.end(`end ${i}\n`);
      return { p, s, i };
    });
    for (const { p, s, i } of ps) {
      expect(await p.outcome).toEqual({ exitCode: 0 });
      expect(s.out()).toBe(`line ${i}\nend ${i}\n`);
    }
  });

  it.runIf(process.getuid?.() === 0)("runs the child as the user and group asked for", async () => {
    const p = spawnDetached("/usr/bin/id", ["-u"], { stdin: false, uid: 65534, gid: 65534 });
    const s = collect(p);
    await p.outcome;
    expect(s.out()).toBe("65534\n");
    const q = spawnDetached("/usr/bin/id", ["-g"], { stdin: false, uid: 65534, gid: 65534 });
    const t = collect(q);
    await q.outcome;
    expect(t.out()).toBe("65534\n");
  });

  it("settles the processes of a spawner that died, and starts a new spawner for the next one", async () => {
    const p = spawnDetached("/bin/sleep", ["300"], { stdin: false });
    await pidOf(p);
    const first = spawnerPid()!;
    process.kill(first, "SIGKILL");
    const o = await p.outcome;
    expect(o.exitCode).toBeUndefined();
    const q = spawnDetached("/bin/echo", ["again"], { stdin: false });
    const s = collect(q);
    expect(await q.outcome).toEqual({ exitCode: 0 });
    expect(s.out()).toBe("again\n");
    expect(spawnerPid()).not.toBe(first);
    // the orphan was ended with its spawner, as bwrap's --die-with-parent ends a sandbox
    await expect.poll(() => alive(p.pid!), DEATH).toBe(false);
  });

  it("ends the group with its leader: what the leader left running dies when it exits", async () => {
    const p = spawnDetached("/bin/sh", ["-c", "sleep 300 >/dev/null 2>&1 & echo $!"], { stdin: false });
    const s = collect(p);
    expect(await p.outcome).toEqual({ exitCode: 0 });
    const sleeper = Number(s.out().trim());
    await expect.poll(() => alive(sleeper), DEATH).toBe(false);
  });

  it("never signals a pid once its process has ended (the pid may belong to another group by then)", async () => {
    const p = spawnDetached("/bin/true", [], { stdin: false });
    expect(await p.outcome).toEqual({ exitCode: 0 });
    // Another process group now holds the number, as a reused pid would.
    const other = spawn("/bin/sleep", ["300"], { detached: true, stdio: "ignore" });
    try {
      p.pid = other.pid!;
      p.kill();
      await new Promise((r) => setTimeout(r, 100));
      expect(alive(other.pid!)).toBe(true);
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("ends with the runner that started it, even one killed outright, and leaves no socket behind", async () => {
    const tmp = mkdtempSync(join(tmpdir(), "gb-spawner-owner-"));
    try {
      const spawner = fileURLToPath(new URL("../../../../../harness/sandbox/world/spawner.ts", import.meta.url));
      // The runner dies by SIGKILL: none of its own exit handlers run, only the spawner can clean up.
      const code = `import { writeSync } from "node:fs";
import { spawnDetached, spawnerPid } from ${JSON.stringify(spawner)};
const p = spawnDetached("/bin/true", [], { stdin: false });
const o = await p.outcome;
writeSync(1, JSON.stringify({ o, spawner: spawnerPid() }) + "\\n");
process.kill(process.pid, "SIGKILL");`;
      const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
        env: { ...process.env, TMPDIR: tmp },
        encoding: "utf-8",
      });
      expect(r.signal).toBe("SIGKILL");
      const { o, spawner: pid } = JSON.parse(r.stdout.trim().split("\n").pop()!) as { o: unknown; spawner: number };
      expect(o).toEqual({ exitCode: 0 });
      await expect.poll(() => alive(pid), DEATH).toBe(false);
      expect(readdirSync(tmp).filter((f) => f.startsWith("gatebench-spawner-"))).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
