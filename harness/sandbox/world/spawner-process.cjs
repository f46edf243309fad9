"use strict";
// gatebench's spawner: a small host process that starts the sandboxes (bwrap) for the runner.
//
// Why: starting a process forks its parent. The runner holds hundreds of megabytes (states,
// snapshots, the tokenizer), and Node forks synchronously on its main thread, so every bwrap it
// started cost it several milliseconds of page-table copying and blocked its event loop while the
// child exec'd. This process is small; it forks instead, on its own core.
//
// It never relays data: the runner connects one unix socket per standard stream it wants, and the
// child gets that socket as its stdin, stdout or stderr (the same kind of file a Node child's
// "pipe" is: one end of a unix socket pair). Once the child is started this process closes its
// copies, so the runner talks to the child directly.
//
// Protocol, one JSON object per line:
//   runner -> stdin  {"id":1,"file":"/usr/bin/bwrap","args":[...],"uid":1001,"gid":1001,"streams":["stdin","stdout","stderr"]}
//   runner -> socket "<id> <stream>\n" on a new connection, once per stream named in "streams"
//   stdout -> runner {"id":1,"ev":"spawn","pid":123} | {"id":1,"ev":"error","code":"ENOENT","message":"..."}
//                    {"id":1,"ev":"exit","code":0,"signal":null}
// Streams not named are /dev/null. Children run detached (their own process group, which the
// runner kills, and which this process ends when it reaps the leader) with an empty environment
// (bwrap sets the sandbox's own). When the runner goes away (stdin ends), this process removes
// its socket and exits, and bwrap's --die-with-parent ends every sandbox.
// Plain JavaScript with node builtins only.
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const net = require("node:net");
const path = require("node:path");
const readline = require("node:readline");

const socketPath = process.argv[2];
if (!socketPath) {
  process.stderr.write("usage: spawner-process.cjs <socket path>\n");
  process.exit(2);
}

/** id -> { request, streams: Map<name, socket> } until every stream named has connected. */
const waiting = new Map();

const send = (msg) => process.stdout.write(`${JSON.stringify(msg)}\n`);
// The runner gone (it exited while a sandbox was still ending): nobody reads the exit any more.
process.stdout.on("error", (err) => {
  if (err.code === "EPIPE") process.exit(0);
  throw err;
});

function entry(id) {
  let e = waiting.get(id);
  if (!e) {
    e = { request: undefined, streams: new Map() };
    waiting.set(id, e);
  }
  return e;
}

function maybeStart(id) {
  const e = waiting.get(id);
  if (!e?.request || e.streams.size < e.request.streams.length) return;
  waiting.delete(id);
  const r = e.request;
  const stdio = ["stdin", "stdout", "stderr"].map((name) => e.streams.get(name) ?? "ignore");
  let child;
  try {
    child = spawn(r.file, r.args, {
      stdio,
      detached: true,
      env: {},
      ...(typeof r.uid === "number" ? { uid: r.uid } : {}),
      ...(typeof r.gid === "number" ? { gid: r.gid } : {}),
    });
  } catch (err) {
    for (const s of e.streams.values()) s.destroy();
    send({ id, ev: "error", code: err.code ?? "EINVAL", message: String(err.message ?? err) });
    return;
  }
  // The child holds its own copies; ours go before the runner may write (it waits for "spawn").
  for (const s of e.streams.values()) s.destroy();
  // A child that could not start (ENOENT, EACCES) has no pid and reports "error" instead.
  child.on("error", (err) => send({ id, ev: "error", code: err.code ?? "EIO", message: String(err.message ?? err) }));
  child.on("exit", (code, signal) => {
    // The group ends with its leader, while its pid cannot yet be another's: what the leader
    // left running dies now, and the runner never has to signal a pid that may since be reused.
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
    send({ id, ev: "exit", code, signal });
  });
  if (child.pid !== undefined) send({ id, ev: "spawn", pid: child.pid });
}

const server = net.createServer({ allowHalfOpen: true, pauseOnConnect: false }, (socket) => {
  let head = "";
  const onData = (chunk) => {
    head += chunk.toString("latin1");
    const nl = head.indexOf("\n");
    if (nl < 0) {
      if (head.length > 100) socket.destroy();
      return;
    }
    socket.off("data", onData);
    socket.pause();
    const [idText, name] = head.slice(0, nl).split(" ");
    const id = Number(idText);
    if (!Number.isInteger(id) || !["stdin", "stdout", "stderr"].includes(name)) {
      socket.destroy();
      return;
    }
    entry(id).streams.set(name, socket);
    maybeStart(id);
  };
  socket.on("data", onData);
  socket.on("error", () => {});
});

server.listen(socketPath, () => send({ ev: "ready" }));
/** The socket and its folder (made for this spawner alone) go with it, whoever ends first. */
function cleanUp() {
  try {
    fs.unlinkSync(socketPath);
  } catch {}
  try {
    fs.rmdirSync(path.dirname(socketPath));
  } catch {}
}

server.on("error", (err) => {
  process.stderr.write(`spawner: ${err.message}\n`);
  cleanUp();
  process.exit(1);
});

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
lines.on("line", (line) => {
  let r;
  try {
    r = JSON.parse(line);
  } catch {
    return;
  }
  if (!Number.isInteger(r.id) || typeof r.file !== "string" || !Array.isArray(r.args) || !Array.isArray(r.streams)) return;
  entry(r.id).request = r;
  maybeStart(r.id);
});
lines.on("close", () => {
  cleanUp();
  process.exit(0);
});
