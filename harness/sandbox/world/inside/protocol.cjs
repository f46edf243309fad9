"use strict";
// The line protocol both programs speak: one JSON request per line on stdin
//   {"id": 1, "op": "read", "path": "a.txt", ...}
// one JSON response per line on stdout
//   {"id": 1, "ok": true, "value": ...} | {"id": 1, "ok": false, "code": "ENOENT", "message": "..."}
// Requests may overlap (ids). Nothing may crash the process: every op is wrapped.
const readline = require("node:readline");

/** Serves `OPS` (op name -> async function of the request) on stdin/stdout until stdin closes. */
function serve(OPS) {
  function send(obj) {
    process.stdout.write(JSON.stringify(obj) + "\n");
  }

  async function handle(line) {
    let req;
    try {
      req = JSON.parse(line);
    } catch {
      send({ id: null, ok: false, code: "EPROTO", message: "request is not JSON" });
      return;
    }
    const fn = OPS[req.op];
    if (!fn) {
      send({ id: req.id, ok: false, code: "EUNKNOWNOP", message: `unknown op ${req.op}` });
      return;
    }
    try {
      const value = await fn(req);
      send({ id: req.id, ok: true, value: value === undefined ? null : value });
    } catch (e) {
      send({ id: req.id, ok: false, code: e?.code ?? "EIO", message: e?.message ?? String(e) });
    }
  }

  process.on("uncaughtException", (e) => {
    process.stderr.write(`helper: uncaught ${e?.stack ?? e}\n`);
  });
  process.on("unhandledRejection", (e) => {
    process.stderr.write(`helper: unhandled ${e?.stack ?? e}\n`);
  });
  process.stdout.on("error", () => process.exit(0));

  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on("line", (line) => {
    if (line.trim() !== "") void handle(line);
  });
  rl.on("close", () => process.exit(0));
  send({ ready: true, pid: process.pid });
}

module.exports = { serve };
