/**
 * Attack: inputs without bounds. A task whose `tests/loop -> .` link loops crashed eval and
 * validate with exit 1 (the regression code); it is bad input now, exit 2 naming the task and the
 * link (harness/sandbox/files/contained.ts). A 1.5 MB Inspect `.eval` zip drove `history` to
 * 1.7 GB: every entry was inflated, used or not. Now only the sample read is inflated, and one
 * larger than the limit is refused naming the file and the limit (harness/model/import/formats.ts).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { deflateRawSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { writeTaskFixture } from "../../support/task-fixture.ts";

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

function run(args: string[]): { status: number | null; out: string } {
  const r = spawnSync(TSX, args, { cwd: REPO, encoding: "utf8", timeout: 170_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of data) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A zip of deflated entries; an entry given as { deflated, size, crc } is written as it is (one compressed stream reused). */
function zip(entries: { name: string; deflated: Buffer; size: number; crc: number }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(e.crc, 14);
    local.writeUInt32LE(e.deflated.length, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(e.crc, 16);
    central.writeUInt32LE(e.deflated.length, 20);
    central.writeUInt32LE(e.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.deflated);
    centrals.push(central, name);
    offset += local.length + name.length + e.deflated.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

function entry(name: string, data: Buffer): { name: string; deflated: Buffer; size: number; crc: number } {
  return { name, deflated: deflateRawSync(data, { level: 9 }), size: data.length, crc: crc32(data) };
}

const SAMPLE = {
  started_at: "2026-01-01T00:00:00Z",
  messages: [
    { role: "user", content: "list the files" },
    { role: "assistant", content: "", tool_calls: [{ id: "c1", function: "bash", arguments: { cmd: "ls" } }] },
    { role: "tool", tool_call_id: "c1", content: "a.txt", error: null },
  ],
};

/** Peak resident memory (KB) of a command, from GNU time. */
function peakKb(args: string[]): { status: number | null; out: string; kb: number } {
  const r = spawnSync("/usr/bin/time", ["-f", "PEAK_KB=%M", TSX, ...args], { cwd: REPO, encoding: "utf8", timeout: 300_000 });
  const m = /PEAK_KB=(\d+)/.exec(r.stderr);
  return { status: r.status, out: `${r.stdout}${r.stderr}`, kb: m ? Number(m[1]) : Number.NaN };
}

describe("attack: inputs without bounds", () => {
  it("a tests/loop -> . link: eval and validate exit 2 naming the task and the link", () => {
    const parent = temp("gb-attack-bounds-tasks-");
    writeTaskFixture({ id: "looping", setup: "echo hi > /workspace/a.txt", test: "exit 1", reference: [{ say: "done" }] }, parent);
    symlinkSync(".", join(parent, "looping", "tests", "loop"));
    const out = join(temp("gb-attack-bounds-out-"), "run");
    const e = run(["harness/apps/cli/eval.ts", "--tasks-dir", parent, "--gates", "none", "--agents", "nop", "--no-store", "--out", out]);
    expect(e.status, e.out).toBe(2);
    expect(e.out).toContain("looping/tests/loop");
    expect(e.out).toContain("a link that does not loop");
    const v = run(["harness/apps/cli/validate.ts", "--tasks-dir", parent, "--json"]);
    expect(v.status, v.out).toBe(2);
    expect(v.out).toContain("looping/tests/loop");
    expect(v.out).toContain("a link that does not loop");
    // two links naming each other
    const parent2 = temp("gb-attack-bounds-tasks-");
    writeTaskFixture({ id: "circle", setup: "echo hi > /workspace/a.txt", test: "exit 1", reference: [{ say: "done" }] }, parent2);
    symlinkSync("b", join(parent2, "circle", "tests", "a"));
    symlinkSync("a", join(parent2, "circle", "tests", "b"));
    const v2 = run(["harness/apps/cli/validate.ts", "--tasks-dir", parent2, "--json"]);
    expect(v2.status, v2.out).toBe(2);
    expect(v2.out).toContain("circle/tests/a");
  });

  it("an .eval zip of many large entries: history inflates only the sample it reads", () => {
    const dir = temp("gb-attack-bounds-eval-");
    // 64 entries of 24 MB each (1.5 GB inflated) from one compressed stream of ~24 KB
    const big = entry("x", Buffer.alloc(24 * 1024 * 1024, 0x20));
    const file = join(dir, "bomb.eval");
    writeFileSync(
      file,
      zip([
        entry("samples/a_1.json", Buffer.from(JSON.stringify(SAMPLE))),
        ...Array.from({ length: 64 }, (_, i) => ({ ...big, name: `samples/z_${i}.json` })),
        ...Array.from({ length: 64 }, (_, i) => ({ ...big, name: `logs/${i}.json` })),
      ]),
    );
    const r = peakKb(["harness/apps/cli/history.ts", file, "--gates", "none", "--json"]);
    expect(r.status, r.out).toBe(0);
    expect(r.out).toContain('"format": "inspect"');
    // Generous: the harness itself runs in a few hundred MB; inflating the entries costs 3 GB.
    expect(r.kb, r.out).toBeLessThan(1_000_000);
    expect(r.kb).toBeGreaterThan(0);
  });

  it("an .eval whose sample is larger than the limit: exit 2 naming the file and the limit", () => {
    const dir = temp("gb-attack-bounds-eval-");
    const file = join(dir, "huge.eval");
    // valid JSON: the sample padded with spaces to 80 MB, past the limit (64 MB)
    const padded = Buffer.alloc(80 * 1024 * 1024, 0x20);
    Buffer.from(JSON.stringify(SAMPLE)).copy(padded, 0);
    writeFileSync(file, zip([entry("samples/a.json", padded)]));
    const r = run(["harness/apps/cli/history.ts", file, "--gates", "none"]);
    expect(r.status, r.out).toBe(2);
    expect(r.out).toContain("huge.eval");
    expect(r.out).toMatch(/samples\/a\.json: a sample of at most \d+ bytes inflated \(its entry says 83886080\)/);
  });
});
