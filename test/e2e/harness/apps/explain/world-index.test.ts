/**
 * The corpus mode's shared world (harness/apps/explain/world-index.ts) on real sandboxes: its
 * lookups answer what the world's helper answers, its shared read-only sandbox keeps nothing of
 * one dry run for the next, and a corpus decided on it decides every entry as one by one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadGateConfig } from "../../../../../gates/config.ts";
import type { EnvView } from "../../../../../gates/types.ts";
import { decideEntries, readCorpus } from "../../../../../harness/apps/explain/corpus.ts";
import { ASK_WORLD, shareWorld, WorldIndex, type SharedWorld } from "../../../../../harness/apps/explain/world-index.ts";
import { createWorld, type TrialWorld } from "../../../../../harness/sandbox/world/world.ts";
import { sample, shellCorpusEntries } from "../../../../../scripts/compare-corpus-paths.ts";

const SETUP = `set -e
mkdir -p src/lib docs/sub .hidden locked noexec ~/.config/app /tmp/cache-a /tmp/cache-b
echo 'export {}' > src/app.ts; echo x > src/lib/util.js; echo y > docs/sub/b.md; echo z > .hidden/k
printf 'secret' > locked/key; chmod 000 locked
echo n > noexec/f; chmod 644 noexec
ln -s src/lib lib; ln -s /home/user/.config cfg; ln -s ../workspace/src /tmp/up; ln -s missing dangling
ln -s loop1 loop1; ln -s /etc etc-link; ln -s docs/sub/../.. docs-up; ln -s src/app.ts/x through-file
echo '{}' > ~/.config/app/settings.json; echo t > /tmp/cache-a/f
`;

const PATHS = [
  "src",
  "src/app.ts",
  "/workspace/src/lib/util.js",
  "lib",
  "lib/util.js",
  "lib/",
  "lib/../docs",
  "cfg/app/settings.json",
  "cfg/app",
  "/tmp/up/app.ts",
  "/tmp/up",
  "dangling",
  "loop1",
  "loop1/x",
  "etc-link/hostname",
  "docs-up",
  "docs-up/src/app.ts",
  "through-file",
  "src/app.ts/x",
  "locked",
  "locked/key",
  "noexec/f",
  "nothing/here",
  "~",
  "~/.config/app/settings.json",
  "/tmp",
  "/tmp/cache-a/f",
  "/etc/passwd",
  "/",
  "",
];

const GLOBS = [
  "src/*",
  "*",
  ".*",
  "/tmp/cache-*",
  "/tmp/cache-*/",
  "lib/*.js",
  "cfg/*/settings.json",
  "{src,docs}/*",
  "docs/*/[ab].md",
  "/tmp/*/f",
  "/*",
  "locked/*",
];

describe("the shared world of a corpus", () => {
  let world: TrialWorld;
  let shared: SharedWorld;
  beforeAll(async () => {
    world = await createWorld();
    const r = await world.exec(SETUP);
    expect(r.stderr).toBe("");
    shared = await shareWorld(world);
  });
  afterAll(async () => {
    shared?.close();
    await world?.close();
  });

  const settle = async <T>(p: Promise<T>) =>
    p.then(
      (v) => ({ v }),
      (e: Error) => ({ e: e.constructor.name }),
    );

  it("answers every lookup as the world's helper does", async () => {
    expect(shared.indexed).toBe(true);
    const ops = ["realpath", "lstat", "readlink", "readFile", "readdir"] as const;
    for (const p of PATHS)
      for (const op of ops) {
        const fn = (env: EnvView) => (env[op] as (x: string) => Promise<unknown>).call(env, p);
        expect(await settle(fn(shared.env)), `${op}(${JSON.stringify(p)})`).toEqual(await settle(fn(world.env)));
      }
    for (const g of GLOBS) expect(await settle(shared.env.glob(g)), `glob(${g})`).toEqual(await settle(world.env.glob(g)));
  });

  it("answers most of them from its listing, and leaves to the world what lies outside it", async () => {
    const listing = await (await world.startGateRunner()).listing(world.roots);
    const index = new WorldIndex(listing!);
    expect(index.lstat("src/app.ts")).toEqual({ type: "file", size: 10, mode: 0o644 });
    expect(index.realpath("lib/util.js")).toBe("/workspace/src/lib/util.js");
    expect(index.realpath("docs-up/src/app.ts")).toBe("/workspace/src/app.ts");
    expect(index.glob("/tmp/cache-*")).toEqual(["/tmp/cache-a", "/tmp/cache-b"]);
    expect(index.lstat("nothing/here")).toBeNull();
    // outside the roots, an unreadable folder, a loop: the world answers
    expect(index.lstat("/etc/passwd")).toBe(ASK_WORLD);
    expect(index.realpath("etc-link/hostname")).toBe(ASK_WORLD);
    expect(index.lstat("locked/key")).toBe(ASK_WORLD);
    expect(index.realpath("loop1")).toBe(ASK_WORLD);
    expect(index.realpath("/tmp/up/app.ts")).toBe(ASK_WORLD); // its link climbs out of /tmp
    expect(index.glob("/*")).toBe(ASK_WORLD);
  });

  it("keeps nothing of one dry run for the next: what it writes, and what it leaves running", async () => {
    const run = shared.env.runGateProcess!;
    const look = ["/usr/bin/env", "-C", "/workspace", "/usr/bin/find", "/dev", "/tmp", "/workspace/src", "-newer", "/workspace/src/app.ts", "-printf", "%p\\n"];
    const before = await run(look, "", 3000);
    // A listing program that writes (tar -c) and one that leaves a process behind (tar's checkpoint action)
    await run(["/usr/bin/env", "-C", "/workspace", "/usr/bin/tar", "-cf", "/dev/shm/out.tar", "src"], "", 3000);
    await run(["/usr/bin/env", "-C", "/workspace", "/usr/bin/tar", "-cf", "/tmp/out.tar", "src"], "", 3000);
    const spawned = await run(
      ["/usr/bin/env", "-C", "/workspace", "/usr/bin/tar", "-cf", "/dev/null", "--checkpoint=1", "--checkpoint-action=exec=sleep 60 &", "src"],
      "",
      3000,
    );
    expect(spawned.timedOut).toBe(false);
    const after = await run(look, "", 3000);
    expect(after).toEqual(before);
    // the same listing in a sandbox of its own sees the same
    const own = await world.runGateProcess(look, "", { timeoutMs: 3000 });
    expect(own.stdout).toBe(after.stdout);
    const procs = await run(["/usr/bin/env", "-C", "/workspace", "/usr/bin/find", "/proc", "-maxdepth", "1", "-name", "[0-9]*", "-printf", "%f\\n"], "", 3000);
    // the sandbox's init, the runner, and find itself: nothing of the earlier runs
    expect(procs.stdout.trim().split("\n")).toHaveLength(3);
  });
});

describe("a corpus decided on shared worlds", () => {
  it("decides every entry of a sample as one by one, decision, reason, layers and questions", async () => {
    const incidents = readCorpus("corpora/incidents.yaml").filter((e) =>
      ["t7_cleanup_tmp", "t18_find_delete_bypass", "t14_symlink_photos"].includes(e.task ?? ""),
    );
    const entries = [...sample(incidents, 12), ...sample(shellCorpusEntries(), 24)];
    const gates = [loadGateConfig("shell-ast"), loadGateConfig("layered")];
    const old = await decideEntries(gates, entries, {}, 2, { sharedWorld: false });
    const now = await decideEntries(gates, entries, {});
    const strip = (xs: typeof old.decided extends Map<string, infer V> ? V : never) => xs.map(({ d }) => ({ ...d, ms: 0 }));
    for (const g of gates) expect(strip(now.decided.get(g.name)!)).toEqual(strip(old.decided.get(g.name)!));
  });
});
