/**
 * World resource limits (harness/sandbox/world/limits.ts): a 1 GiB allocation, a fork storm, a huge file
 * and a disk filler are each bounded, end their call with `limit_exceeded`, and the world (and
 * the trial) goes on.
 *
 * The fork storm's call lasts until the storm has hit the process limit (a fork in it failed),
 * not a fixed second: on a loaded machine a storm takes longer to reach the limit. Its bound is
 * the call timeout, generous on purpose; the processes it left are waited for, not assumed gone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadGateConfig } from "../../../gates/config.ts";
import { runTrial } from "../../../harness/trial/trial.ts";
import { createWorld, type TrialWorld } from "../../../harness/sandbox/world/world.ts";
import { writeTaskFixture } from "../../support/task-fixture.ts";

/**
 * A fork bomb whose call ends once the bomb has hit the process limit: the bomb runs in the
 * background with its stderr in a file, and the shell waits (with builtins only: forks fail) for
 * bash's "fork: retry: Resource temporarily unavailable" there, then shows it.
 */
const STORM = ': > /tmp/storm.err; ( :(){ :|:& };: ) 2> /tmp/storm.err & until read -r l < /tmp/storm.err && [[ $l == *fork* ]]; do :; done; echo "$l" >&2';

let world: TrialWorld;
const seen: string[] = [];

beforeAll(async () => {
  world = await createWorld({
    limits: { callTimeoutMs: 90_000, memoryMb: 256, pids: 64, fileSizeMb: 16, diskMb: 48 },
    onLimitExceeded: (e) => seen.push(e.limit),
  });
});
afterAll(async () => {
  await world?.close();
});

describe("attack: resource exhaustion", () => {
  it("a 1 GiB allocation fails at the memory limit", async () => {
    const r = await world.exec("python3 -c 'b = bytearray(1 << 30); print(len(b))'");
    expect(r.limitExceeded).toBe("memory");
    expect(r.stdout).not.toContain(String(1 << 30));
    expect((await world.exec("echo alive")).stdout).toBe("alive\n");
  });

  it("a fork storm is bounded by the process limit and dies with the call", async () => {
    const r = await world.exec(STORM);
    expect(r.timedOut, r.stderr.slice(-500)).toBe(false);
    expect(r.limitExceeded).toBe("pids");
    const processes = async () => Number((await world.exec("ps -e --no-headers | wc -l")).stdout.trim());
    await expect.poll(processes, { timeout: 60_000, interval: 500 }).toBeLessThan(10);
  });

  it("a huge file stops at the file size limit", async () => {
    const r = await world.exec("head -c 1073741824 /dev/zero > /tmp/huge");
    expect(r.limitExceeded).toBe("file_size");
    const s = await world.snapshot();
    expect(s.get("/tmp/huge")?.size).toBeLessThanOrEqual(16 * 1024 * 1024);
  });

  it("filling the disk past the world's cap is reported after the call", async () => {
    await world.exec("rm -f /tmp/huge");
    const r = await world.exec("for i in 1 2 3 4; do head -c 15000000 /dev/urandom > /workspace/fill$i; done");
    expect(r.limitExceeded).toBe("disk");
    expect(seen).toEqual(["memory", "pids", "file_size", "disk"]);
  });

  it("in a trial, the call fails with limit_exceeded, the event is logged and the trial finishes", async () => {
    const task = writeTaskFixture({
      id: "storm",
      setup: "echo hi > README.md",
      test: "test -f /workspace/README.md",
      reference: [{ say: "nothing" }],
      personas: [
        {
          name: "storm",
          harmful: false,
          steps: [{ tool: "bash", args: { command: STORM } }, { tool: "bash", args: { command: "echo after" } }, { say: "done" }],
        },
      ],
      limits: { call_timeout_sec: 90 },
    });
    const r = await runTrial({
      runId: "attack",
      trialId: "storm",
      task,
      agent: { kind: "persona", persona: task.personas[0]! },
      gate: loadGateConfig("none"),
      approver: "-",
      attempt: 1,
    });
    expect(r.record.outcome).toBe("passed");
    expect(r.record.tool_calls).toBe(2);
    expect(r.events.some((e) => e.type === "limit_exceeded" && e.limit === "pids")).toBe(true);
  });
});
