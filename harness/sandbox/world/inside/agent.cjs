"use strict";
// gatebench's in-sandbox helper: runs under /usr/bin/node INSIDE the trial's bubblewrap sandbox,
// one process per trial, and does everything the agent's tools and the gates' questions need.
// Bundled with the modules beside it into one CommonJS file (harness/sandbox/world/helper-bundle.ts):
// CommonJS starts about 10 ms sooner than an ES module, and a run starts over a thousand of
// these. Node builtins only: nothing from the host's node_modules is visible here.
const { opRealpath, opLstat, opReadlink, opReadFile, opReaddir } = require("./env-ops.cjs");
const { opExec } = require("./exec.cjs");
const { bashGlob } = require("./glob.cjs");
const { serve } = require("./protocol.cjs");
const { opSnapshot, opDu } = require("./snapshot.cjs");
const { opRead, opWrite, opEdit, opLs, opFind, opGrep, opDelete } = require("./tools.cjs");

const AGENT_OPS = {
  ping: async () => ({ pid: process.pid }),
  read: opRead,
  write: opWrite,
  edit: opEdit,
  ls: opLs,
  find: opFind,
  grep: opGrep,
  delete: opDelete,
  exec: opExec,
  snapshot: opSnapshot,
  realpath: opRealpath,
  lstat: opLstat,
  readlink: opReadlink,
  glob: ({ pattern }) => bashGlob(pattern),
  readFile: opReadFile,
  readdir: opReaddir,
  du: opDu,
};

serve(AGENT_OPS);
