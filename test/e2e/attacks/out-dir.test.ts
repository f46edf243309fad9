/**
 * Attack on the output folder: a second run on a folder that a live run is writing to, and a
 * killed `npm run eval` whose worker would go on writing as an orphan.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { LOCK_NAME, parseIdentity } from "../../../harness/sandbox/process/ownership.ts";

const REPO = resolve(import.meta.dirname, "../../..");
const TSX = join(REPO, "node_modules/.bin/tsx");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const state = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0];
    return state !== "Z";
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

describe("attack: one writer per out dir", () => {
  it("a second run on a folder held by a live run exits 2 naming the holder's pid", async () => {
    const out = mkdtempSync(join(tmpdir(), "gb-attack-out-"));
    const holderScript = join(out, "..", `${out.split("/").pop()}-holder.ts`);
    writeFileSync(
      holderScript,
      [
        `import { RunOutput } from ${JSON.stringify(join(REPO, "harness/run/output/output.ts"))};`,
        `new RunOutput(${JSON.stringify(out)});`,
        "setInterval(() => {}, 1000);",
        "",
      ].join("\n"),
    );
    // One process (node with tsx's loader), so killing it leaves no child behind.
    const holder = spawn(process.execPath, ["--import", "tsx", holderScript], { cwd: REPO, stdio: "ignore" });
    try {
      expect(await waitFor(() => existsSync(join(out, LOCK_NAME)), 60_000)).toBe(true);
      const owner = parseIdentity(readFileSync(join(out, LOCK_NAME), "utf8"))!;
      const second = spawnSync(TSX, ["harness/apps/cli/eval.ts", "--out", out, "--tasks", "t7_cleanup_tmp", "--gates", "none", "--agents", "nop"], {
        cwd: REPO,
        encoding: "utf8",
        timeout: 90_000,
      });
      expect(second.status).toBe(2);
      expect(second.stderr).toContain(`pid ${owner.pid}`);
      expect(existsSync(join(out, "results.jsonl"))).toBe(false);
    } finally {
      holder.kill("SIGKILL");
    }
  });

  it("killing `npm run eval` ends its worker too (no orphan keeps writing)", async () => {
    const out = mkdtempSync(join(tmpdir(), "gb-attack-orphan-"));
    const npm = spawn(
      "npm",
      [
        "run",
        "--silent",
        "eval",
        "--",
        "--out",
        out,
        "--tasks",
        "t7_cleanup_tmp",
        "--gates",
        "none",
        "--agents",
        "reference",
        "--trials",
        "20",
        "--concurrency",
        "1",
        "--json",
      ],
      {
        cwd: REPO,
        stdio: "ignore",
      },
    );
    try {
      expect(await waitFor(() => existsSync(join(out, LOCK_NAME)), 60_000)).toBe(true);
      const worker = parseIdentity(readFileSync(join(out, LOCK_NAME), "utf8"))!.pid;
      expect(alive(worker)).toBe(true);
      npm.kill("SIGKILL");
      // The worker polls its launcher chain every 500 ms; a loaded machine is given time to exit.
      expect(await waitFor(() => !alive(worker), 60_000)).toBe(true);
      // it released its lock on the way out
      expect(existsSync(join(out, LOCK_NAME))).toBe(false);
    } finally {
      npm.kill("SIGKILL");
    }
  });
});
