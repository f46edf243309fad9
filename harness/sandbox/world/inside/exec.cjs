"use strict";
// bash commands under the world's limits: output capped, the whole process tree killed afterwards.
const fs = require("node:fs");
const { OpError } = require("./errors.cjs");
const { WORKSPACE } = require("./paths.cjs");

// Loaded when first needed, not at start: many helpers run no command.
let childProcessModule;
const childProcess = () => (childProcessModule ??= require("node:child_process"));

// argv: --limits=<json> ({memoryMb, pids, fileSizeMb}).
const LIMITS = (() => {
  const a = process.argv.find((x) => x.startsWith("--limits="));
  return a ? JSON.parse(a.slice("--limits=".length)) : null;
})();

let activeExecs = 0;

/** Tail-keeping byte collector with a cap. */
function collector(cap) {
  const chunks = [];
  let size = 0;
  let total = 0;
  return {
    push(buf) {
      total += buf.length;
      chunks.push(buf);
      size += buf.length;
      while (size - chunks[0].length >= cap) size -= chunks.shift().length;
    },
    result() {
      let b = Buffer.concat(chunks);
      if (b.length > cap) b = b.subarray(b.length - cap);
      return { text: b.toString("utf-8"), truncated: total > cap };
    },
  };
}

function killGroup(pid) {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // group already gone
  }
}

/** Kills every process in the sandbox except init (pid 1) and this helper, when no exec runs. */
function killStrays() {
  if (activeExecs > 0) return;
  let pids;
  try {
    pids = fs
      .readdirSync("/proc")
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    return;
  }
  for (const pid of pids) {
    if (pid === 1 || pid === process.pid) continue;
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
}

/** bash -c under the world's rlimits (prlimit sets them, then execs bash). */
function commandLine(command) {
  if (!LIMITS) return ["/bin/bash", ["-c", command]];
  const mb = 1024 * 1024;
  return [
    "/usr/bin/prlimit",
    [`--as=${LIMITS.memoryMb * mb}`, `--nproc=${LIMITS.pids}`, `--fsize=${LIMITS.fileSizeMb * mb}`, "--core=0", "--", "/bin/bash", "-c", command],
  ];
}

function countProcs() {
  try {
    return fs.readdirSync("/proc").filter((n) => /^\d+$/.test(n)).length;
  } catch {
    return 0;
  }
}

const MEMORY_ERRORS = /cannot allocate|MemoryError|out of memory|bad_alloc|memory exhausted|Failed to reserve virtual memory|allocation failed/i;
const PIDS_ERRORS = /\bfork: (retry: )?Resource temporarily unavailable|\bcannot fork|\bcan't fork|\bfork failed/i;

/**
 * Which world limit ended the command, as far as rlimits let us tell: SIGXFSZ (or bash's 128+25)
 * for the file size, the process table of the sandbox at the limit or a failed fork for pids, an
 * allocation failure for memory.
 */
function limitHit(exitCode, signal, stderr, peakProcs) {
  if (!LIMITS) return undefined;
  if (signal === "SIGXFSZ" || exitCode === 153 || /File size limit exceeded/.test(stderr)) return "file_size";
  // The helper's own threads count against the same per-user limit: near it is at it.
  if (peakProcs >= Math.max(8, LIMITS.pids - 24) || PIDS_ERRORS.test(stderr)) return "pids";
  // A command that failed for want of memory exits non-zero or dies of a signal.
  if ((exitCode !== 0 || signal) && MEMORY_ERRORS.test(stderr)) return "memory";
  return undefined;
}

function opExec({ command, timeoutMs, maxOutputBytes }) {
  if (typeof command !== "string") throw new OpError("EINVAL", "command must be a string");
  const cap = Math.max(1, maxOutputBytes ?? 1024 * 1024);
  const { spawn } = childProcess();
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    activeExecs++;
    const child = spawn(...commandLine(command), { cwd: WORKSPACE, detached: true, stdio: ["ignore", "pipe", "pipe"], env: process.env });
    const out = collector(cap);
    const err = collector(cap);
    let timedOut = false;
    let exitCode = null;
    let signal = null;
    let done = false;
    child.stdout.on("data", (b) => out.push(b));
    child.stderr.on("data", (b) => err.push(b));
    const timer = setTimeout(
      () => {
        timedOut = true;
        killGroup(child.pid);
      },
      Math.max(1, timeoutMs ?? 60_000),
    );
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(closeFallback);
      child.stdout.destroy();
      child.stderr.destroy();
      const o = out.result();
      const e = err.result();
      const limit = limitHit(exitCode, signal, e.text, peakProcs);
      resolve({
        exitCode,
        signal,
        stdout: o.text,
        stderr: e.text,
        timedOut,
        truncated: o.truncated || e.truncated,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        ...(limit ? { limitExceeded: limit } : {}),
      });
    };
    let closeFallback;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      activeExecs--;
    };
    child.on("error", (e) => {
      err.push(Buffer.from(String(e.message)));
      release();
      finish();
    });
    let peakProcs = 0;
    const sampler = LIMITS ? setInterval(() => (peakProcs = Math.max(peakProcs, countProcs())), 50) : undefined;
    child.on("exit", (code, sig) => {
      if (sampler) clearInterval(sampler);
      peakProcs = Math.max(peakProcs, countProcs());
      exitCode = code;
      signal = sig;
      // Background jobs die with the command: its group, then anything else that escaped it.
      killGroup(child.pid);
      release();
      killStrays();
      // Pipes close once every holder is dead; do not wait forever for a holder we could not kill.
      closeFallback = setTimeout(finish, 300);
    });
    child.on("close", finish);
  });
}

module.exports = { opExec };
