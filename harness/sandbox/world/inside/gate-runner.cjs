"use strict";
// One read-only sandbox kept for many one-shot gate processes of a world that does not change
// (explain --corpus: dry runs that list what a command would touch). Started as `node -e` so the
// sandbox shows exactly what a gate process's own sandbox shows. One process at a time: after each,
// its group and anything else it left running in the sandbox are killed, so nothing of one run
// is there for the next; the sandbox has no writable place, so nothing it wrote is either. It also
// lists the world once (world-index.cjs) for lookups answered without a round trip each.
const fs = require("node:fs");
const { constants } = require("node:os");
const { spawn } = require("node:child_process");
const { serve } = require("./protocol.cjs");
const { opIndex } = require("./world-index.cjs");

/** Keeps the last `cap` bytes of a stream (as the host's TailCollector does for a sandboxed run). */
function tail(cap) {
  const chunks = [];
  let size = 0;
  return {
    push(buf) {
      chunks.push(buf);
      size += buf.length;
      while (chunks.length > 1 && size - chunks[0].length >= cap) size -= chunks.shift().length;
    },
    text() {
      let b = Buffer.concat(chunks);
      if (b.length > cap) b = b.subarray(b.length - cap);
      return b.toString("utf-8");
    },
  };
}

/** Every process of the sandbox but its init (pid 1) and this one. */
function killOthers() {
  let pids = [];
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

let queue = Promise.resolve();

function runOne({ argv, stdin, timeoutMs, maxOutputBytes }) {
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === "string"))
    throw Object.assign(new Error("argv must be a non-empty list of strings"), { code: "EINVAL" });
  const cap = Math.max(1, maxOutputBytes ?? 1024 * 1024);
  return new Promise((resolve) => {
    const out = tail(cap);
    const err = tail(cap);
    let timedOut = false;
    let exitCode = null;
    let done = false;
    let child;
    try {
      child = spawn(argv[0], argv.slice(1), { cwd: "/workspace", detached: true, stdio: ["pipe", "pipe", "pipe"], env: process.env });
    } catch (e) {
      resolve({ exitCode: 1, stdout: "", stderr: String(e?.message ?? e), timedOut: false });
      return;
    }
    child.stdout.on("data", (b) => out.push(b));
    child.stderr.on("data", (b) => err.push(b));
    child.stdin.on("error", () => {});
    child.stdin.end(typeof stdin === "string" ? stdin : "");
    const kill = () => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // gone
      }
      killOthers();
    };
    const timer = setTimeout(
      () => {
        timedOut = true;
        kill();
      },
      Math.max(1, timeoutMs ?? 5000),
    );
    let fallback;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(fallback);
      kill();
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({ exitCode: timedOut ? null : exitCode, stdout: out.text(), stderr: err.text(), timedOut });
    };
    child.on("error", (e) => {
      // A program that cannot start: as bwrap reports it, exit 1 with the reason on stderr.
      err.push(Buffer.from(`bwrap: execvp ${argv[0]}: ${e.message}\n`));
      exitCode = 1;
      finish();
    });
    child.on("exit", (code, sig) => {
      // bwrap passes a child's exit on, and a death by signal as 128 + its number.
      exitCode = code ?? 128 + (constants.signals[sig] ?? 0);
      kill();
      fallback = setTimeout(finish, 300);
    });
    child.on("close", finish);
  });
}

serve({
  ping: async () => ({ pid: process.pid }),
  index: opIndex,
  run: (req) => {
    const next = queue.then(() => runOne(req));
    queue = next.catch(() => {});
    return next;
  },
});
