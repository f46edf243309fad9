// The process that hosts untrusted (project) extensions. It runs inside a gate sandbox: the
// world read-only, no network, a clear environment, the repository's node_modules read-only
// at /opt/gatebench/node_modules. This main thread only relays JSON lines between the harness
// (a Unix socket) and a worker thread that loads and runs the extensions (serve.ts, compiled by
// the harness into one module: sandbox/bundle.ts; its path is the third argument), so an
// extension that busy-loops cannot stop it from exiting: the process ends as soon as the
// harness closes the socket, or when the world it was started on is removed. An optional fourth
// argument names a file of transforms made ahead of time (../transformed.ts), passed to the worker.
import { statSync } from "node:fs";
import net from "node:net";
import { Worker } from "node:worker_threads";

const [socketPath, filesJson, workerModule, transformedFile] = process.argv.slice(2);
const files = JSON.parse(filesJson ?? "[]");
const sock = net.connect(socketPath);
let worker;
let ending = false;

function send(message) {
  let line;
  try {
    line = JSON.stringify(message);
  } catch (e) {
    line = JSON.stringify({ t: "fatal", message: `unserialisable message from the extension worker: ${e?.message ?? e}` });
  }
  sock.write(`${line}\n`);
}

function end(code) {
  if (ending) return;
  ending = true;
  sock.end(() => process.exit(code));
  setTimeout(() => process.exit(code), 500).unref();
}

sock.on("connect", () => {
  worker = new Worker(workerModule, { workerData: { files, transformedFile } });
  worker.on("message", (m) => send(m));
  worker.on("error", (e) => {
    send({ t: "fatal", message: `extension worker failed: ${e?.message ?? e}` });
    end(1);
  });
  worker.on("exit", (code) => {
    send({ t: "fatal", message: `extension worker exited (code ${code})` });
    end(1);
  });
});

let buffered = "";
sock.setEncoding("utf8");
sock.on("data", (chunk) => {
  buffered += chunk;
  for (let i = buffered.indexOf("\n"); i >= 0; i = buffered.indexOf("\n")) {
    const line = buffered.slice(0, i);
    buffered = buffered.slice(i + 1);
    try {
      worker?.postMessage(JSON.parse(line));
    } catch {
      // not a message of the protocol: ignored
    }
  }
});
sock.on("close", () => process.exit(0));
sock.on("error", () => process.exit(1));

// The trial's world directory disappears when the trial ends: nothing is left to gate.
let worldLinks;
try {
  worldLinks = statSync("/workspace").nlink;
} catch {
  worldLinks = undefined;
}
if (worldLinks !== undefined) {
  setInterval(() => {
    let gone;
    try {
      gone = statSync("/workspace").nlink === 0;
    } catch {
      gone = true;
    }
    if (gone) process.exit(0);
  }, 1000).unref();
}
