"use strict";
// gatebench's measurer: the snapshot-only program, one sandboxed process per folder of trial dirs,
// out of every agent's reach (harness/sandbox/world/measurer.ts). It answers only measurements: it never
// runs or changes anything. Bundled like agent.cjs.
const { worlds, serially, measureSnapshot, measureDu, forgetWorld } = require("./measurer.cjs");
const { serve } = require("./protocol.cjs");

/** The measurer answers only measurements: it never runs or changes anything. */
const MEASURER_OPS = {
  ping: async () => ({ pid: process.pid, worlds: worlds.size }),
  snapshot: serially(measureSnapshot),
  du: serially(measureDu),
  // after what is queued for the world: a walk still running would watch folders again
  forget: async (req) => {
    const w = worlds.get(req.world);
    if (w) await w.queue;
    return forgetWorld(req);
  },
};

serve(MEASURER_OPS);
