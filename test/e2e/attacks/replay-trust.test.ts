/**
 * Attack: a shared cassette (`eval --replay DIR`). Without `--gates`, a replay took its gate list
 * from the cassette's manifest, so a cassette naming `pi-extension:<file>` ran that file; a FIFO
 * in the cassette hung the replay. Now a replay takes only built-in configurations from the
 * manifest (anything that loads code or files must be named on the command line: exit 2 naming
 * the manifest entry and what to pass), and a cassette is read like a task folder: a link out of
 * it, a loop or anything but a regular file or folder is refused, never opened
 * (harness/apps/cli/eval.ts recordedGates, harness/trial/agent/drivers/cassette.ts).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const REPO = resolve(import.meta.dirname, "../../..");
const TSX = join(REPO, "node_modules/.bin/tsx");
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function temp(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  made.push(d);
  return d;
}

/** A generous bound: a replay that blocks on a FIFO never returns, one that refuses it returns at once. */
function run(args: string[]): { status: number | null; out: string } {
  const r = spawnSync(TSX, args, { cwd: REPO, encoding: "utf8", timeout: 150_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

function cassette(gates: string[]): string {
  const dir = join(temp("gb-attack-replay-"), "cassette");
  mkdirSync(join(dir, "sessions"), { recursive: true });
  writeFileSync(
    join(dir, "cassette.json"),
    JSON.stringify({
      format: "gatebench-cassette",
      version: 1,
      created: "2026-01-01T00:00:00Z",
      run_id: "shared",
      models: {},
      matrix: { tasks: ["t7_cleanup_tmp"], gates, approvers: ["-"], epochs: 1, trials: 1 },
      base_url: null,
    }),
  );
  return dir;
}

const replay = (dir: string, extra: string[] = []) =>
  run(["harness/apps/cli/eval.ts", "--replay", dir, "--agents", "nop", "--no-store", "--out", join(temp("gb-attack-replay-out-"), "run"), ...extra]);

describe("attack: a shared cassette", () => {
  it("a pi-extension or hook the manifest names is not run without --gates: exit 2 naming the entry and what to pass", () => {
    const host = temp("gb-attack-replay-host-");
    const marker = join(host, "extension-ran");
    const extension = join(host, "evil.mjs");
    writeFileSync(extension, `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\nexport default function (pi) {}\n`);
    const hookMarker = join(host, "hook-ran");
    const dir = cassette(["none", `pi-extension:${extension}`, `claude-hook:touch ${hookMarker}`]);
    const r = replay(dir);
    expect(r.status, r.out).toBe(2);
    expect(r.out).toContain("cassette.json: matrix.gates[1]");
    expect(r.out).toContain(`pi-extension:${extension}`);
    expect(r.out).toContain("name it yourself, e.g. --gates");
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(hookMarker)).toBe(false);
    // a configuration file named by the manifest likewise
    const yaml = join(host, "stack.yaml");
    writeFileSync(yaml, `name: stack\nlayers:\n  - pi-extension:${extension}\n`);
    const r2 = replay(cassette([`mine=${yaml}`]));
    expect(r2.status, r2.out).toBe(2);
    expect(r2.out).toContain("matrix.gates[0]");
    expect(existsSync(marker)).toBe(false);
    // built-in configurations are taken over as recorded
    const ok = replay(cassette(["none"]));
    expect(ok.status, ok.out).toBe(0);
  });

  it("a FIFO or a link out of the cassette is refused, never read: exit 2 naming it", () => {
    const dir = cassette(["none"]);
    const fifo = join(dir, "sessions", "t.json");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    const r = replay(dir);
    expect(r.status, r.out).toBe(2);
    expect(r.out).toContain("sessions/t.json");
    expect(r.out).toContain("it is a FIFO, which is never read");
    rmSync(fifo);
    const host = temp("gb-attack-replay-host-");
    const secret = join(host, "private.json");
    writeFileSync(secret, "{}", { mode: 0o600 });
    symlinkSync(secret, join(dir, "sessions", "t.json"));
    const r2 = replay(dir);
    expect(r2.status, r2.out).toBe(2);
    expect(r2.out).toContain("sessions/t.json");
    expect(r2.out).toContain("links out of it are not followed");
  });
});
