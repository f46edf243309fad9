/**
 * In-memory worlds (harness/trial/states/worlds.ts) for unit tests of the trial core: a world is
 * a map of sandbox path -> file, folder or link (scripts/fixtures/fake-env.ts, which also answers
 * the gates' questions), copied for clones and checkpoints, shared by an escalated view. The
 * tools' file operations act on the map; `exec` is a tiny interpreter of a few commands (`echo
 * … > file`, `cat`, `rm`, `touch`, `true`, `false`), anything else exits 127 saying it was not
 * understood. The hidden test is a function of the files. There are no OS profiles (a strict
 * profile masks nothing here), no resource limits and no programs: a probe of `preserve:` entries
 * or an agent product is refused with an error naming what the in-memory world cannot do.
 *
 *   const worlds = new FakeWorlds({ files: { "/workspace/notes.txt": "keep me\n" }, test: (f) => !f.has("/workspace/build/out.o") });
 */
import { createHash } from "node:crypto";
import { posix } from "node:path";
import type { LoadedTask } from "../../harness/model/task/load.ts";
import type { ExecResult, OpResult, Snapshot, SnapshotEntry, WorldFs } from "../../harness/sandbox/world/types.ts";
import type { AgentProcessOptions, CreateWorldOptions, HiddenTestResult } from "../../harness/sandbox/world/world.ts";
import type { Checkpoint, WorldHandle, Worlds, WorldTemplate } from "../../harness/trial/states/worlds.ts";
import { HOME, SANDBOX_TMP, WORKSPACE } from "../../kernel/sandbox-paths.ts";
import { createFakeEnv, type FakeEnv, type FakeNode } from "../../scripts/fixtures/fake-env.ts";

export interface FakeWorldSpec {
  /** The world after the task's setup: sandbox path -> file content (folders above are made). */
  files: Readonly<Record<string, string>>;
  dirs?: readonly string[];
  /** The hidden test over the files at the end (path -> content): true passes. A throw is a test that could not run. */
  test?: (files: ReadonlyMap<string, string>) => boolean;
}

/** What the worlds were asked to do, for tests that check what ran where. */
export interface FakeWorldCounts {
  templates: number;
  setUps: number;
  clones: number;
  escalations: number;
  checkpoints: number;
  views: number;
  discarded: number;
  /** Commands and file operations run in a writable world. */
  writes: number;
}

const ROOTS = [WORKSPACE, HOME, SANDBOX_TMP];

type Nodes = Map<string, FakeNode>;

const sha256 = (s: string): string => createHash("sha256").update(s).digest("hex");

/** A new map of files, with the gates' view of it, holding a copy of `nodes`. */
function envOver(nodes: Nodes): FakeEnv {
  const env = createFakeEnv();
  env.nodes.clear();
  for (const [p, n] of nodes) env.nodes.set(p, { ...n });
  return env;
}

const under = (path: string, dir: string): boolean => path === dir || path.startsWith(dir === "/" ? "/" : `${dir}/`);

/** An error with the world's code on it, as the sandbox's own errors carry one. */
const coded = (code: string, message: string): Error => Object.assign(new Error(message), { code });

class FakeCheckpoint {
  discarded = false;
  constructor(readonly env: FakeEnv) {}
}

export class FakeWorld implements WorldHandle {
  readonly fs: WorldFs;
  trialTimedOut = false;
  closed = false;

  constructor(
    private readonly worlds: FakeWorlds,
    /** The files and the gates' view of them; shared with an escalated view, or with the checkpoint a read-only view looks at. */
    readonly env: FakeEnv,
    readonly readOnly: boolean,
  ) {
    this.fs = this.makeFs();
  }

  get nodes(): Nodes {
    return this.env.nodes;
  }

  /** A sandbox path as the helper resolves it: `~` is the home, a relative path is under /workspace. */
  private abs(path: string): string {
    const p = path === "~" ? HOME : path.startsWith("~/") ? `${HOME}/${path.slice(2)}` : path;
    return posix.normalize(p.startsWith("/") ? p : `${WORKSPACE}/${p}`).replace(/(.)\/$/, "$1");
  }

  private usable(): void {
    if (this.trialTimedOut) throw coded("trial_timeout", "the trial's time is up");
    if (this.closed) throw coded("closed", "world is closed");
  }

  /** Where a write to `path` lands (the final link followed); `makeParents`: its folders are made first, as the write tool does. */
  private writable(path: string, makeParents = false): OpResult<string> {
    if (this.readOnly) return { ok: false, code: "EROFS", message: `EROFS: Read-only file system, ${path}` };
    if (makeParents && this.env.kernelTarget(this.abs(path)) === null) {
      try {
        this.env.addDir(posix.dirname(this.abs(path)));
      } catch {
        return { ok: false, code: "ENOTDIR", message: `ENOTDIR: not a directory, ${path}` };
      }
    }
    const target = this.env.kernelTarget(this.abs(path));
    if (target === null) return { ok: false, code: "ENOENT", message: `ENOENT: no such file or directory, ${path}` };
    if (this.nodes.get(target)?.type === "dir") return { ok: false, code: "EISDIR", message: `EISDIR: illegal operation on a directory, ${path}` };
    this.worlds.counts.writes += 1;
    return { ok: true, value: target };
  }

  private async content(path: string): Promise<OpResult<string>> {
    const real = await this.env.realpath(this.abs(path));
    const node = real === null ? undefined : this.nodes.get(real);
    if (!node) return { ok: false, code: "ENOENT", message: `ENOENT: no such file or directory, ${path}` };
    if (node.type !== "file") return { ok: false, code: "EISDIR", message: `EISDIR: illegal operation on a directory, ${path}` };
    return { ok: true, value: node.content };
  }

  private put(target: string, content: string): void {
    const old = this.nodes.get(target);
    this.nodes.set(target, { type: "file", content, ...(old?.type === "file" && old.mode !== undefined ? { mode: old.mode } : {}) });
  }

  /** Removes `path` itself (a link is not followed) and everything under it; the number of entries removed. */
  private remove(path: string, recursive: boolean): OpResult<{ removed: number }> {
    if (this.readOnly) return { ok: false, code: "EROFS", message: `EROFS: Read-only file system, ${path}` };
    const p = this.abs(path);
    const node = this.nodes.get(p);
    if (!node) return { ok: false, code: "ENOENT", message: `ENOENT: no such file or directory, ${path}` };
    const inside = [...this.nodes.keys()].filter((k) => k !== p && under(k, p));
    if (node.type === "dir" && inside.length > 0 && !recursive) return { ok: false, code: "ENOTEMPTY", message: `ENOTEMPTY: directory not empty, ${path}` };
    for (const k of [p, ...inside]) this.nodes.delete(k);
    this.worlds.counts.writes += 1;
    return { ok: true, value: { removed: inside.length + 1 } };
  }

  private makeFs(): WorldFs {
    const guarded =
      <A extends unknown[], T>(op: (...a: A) => Promise<OpResult<T>>) =>
      async (...a: A): Promise<OpResult<T>> => {
        this.usable();
        return op(...a);
      };
    const unsupported = (name: string) => async (): Promise<OpResult<string>> => ({
      ok: false,
      code: "unsupported",
      message: `the in-memory world does not ${name}`,
    });
    return {
      read: guarded(async (path: string) => this.content(path)),
      write: guarded(async (path: string, content: string) => {
        const w = this.writable(path, true);
        if (!w.ok) return w;
        this.put(w.value, content);
        return { ok: true, value: { bytes: Buffer.byteLength(content) } };
      }),
      edit: guarded(async (path: string, edits: { oldText: string; newText: string }[]) => {
        const now = await this.content(path);
        if (!now.ok) return now;
        let text = now.value;
        for (const e of edits) {
          if (!text.includes(e.oldText)) return { ok: false, code: "edit_failed", message: `could not find the text to replace in ${path}` };
          text = text.replace(e.oldText, () => e.newText);
        }
        const w = this.writable(path);
        if (!w.ok) return w;
        this.put(w.value, text);
        return { ok: true, value: { replaced: edits.length } };
      }),
      ls: guarded(async (path?: string) => {
        const names = await this.env.readdir(this.abs(path ?? "."));
        if (names === null) return { ok: false, code: "ENOENT", message: `ENOENT: no such directory, ${path}` };
        return { ok: true, value: names.join("\n") };
      }),
      find: guarded(unsupported("search (find)")),
      grep: guarded(unsupported("search (grep)")),
      delete: guarded(async (path: string, recursive?: boolean) => this.remove(path, recursive === true)),
    };
  }

  /** The tiny interpreter: one command, words split on blanks, `>`/`>>` to a file. */
  async exec(command: string): Promise<ExecResult> {
    this.usable();
    const result = (exitCode: number, stdout = "", stderr = ""): ExecResult => ({
      exitCode,
      signal: null,
      stdout,
      stderr,
      timedOut: false,
      truncated: false,
      durationMs: 0,
    });
    const words = command.trim().split(/\s+/);
    const redirect = words.findIndex((w) => w === ">" || w === ">>");
    const args = redirect >= 0 ? words.slice(0, redirect) : words;
    const [program, ...rest] = args;
    const out = async (text: string): Promise<ExecResult> => {
      if (redirect < 0) return result(0, text);
      const file = words[redirect + 1];
      if (!file) return result(2, "", "syntax error: a redirection without a file");
      const w = this.writable(file);
      if (!w.ok) return result(1, "", w.message);
      const old = words[redirect] === ">>" ? await this.content(file) : undefined;
      this.put(w.value, (old?.ok ? old.value : "") + text);
      return result(0);
    };
    switch (program) {
      case "true":
        return out("");
      case "false":
        return result(1);
      case "echo":
        return out(`${rest.join(" ")}\n`);
      case "cat": {
        let text = "";
        for (const f of rest) {
          const c = await this.content(f);
          if (!c.ok) return result(1, text, `cat: ${f}: No such file or directory`);
          text += c.value;
        }
        return out(text);
      }
      case "touch": {
        for (const f of rest) {
          const now = await this.content(f);
          const w = this.writable(f);
          if (!w.ok) return result(1, "", `touch: ${w.message}`);
          if (!now.ok) this.put(w.value, "");
        }
        return result(0);
      }
      case "rm": {
        const flags = rest.filter((a) => a.startsWith("-")).join("");
        const paths = rest.filter((a) => !a.startsWith("-"));
        let stderr = "";
        for (const p of paths) {
          const r = this.remove(p, /[rR]/.test(flags));
          if (!r.ok && !(r.code === "ENOENT" && flags.includes("f"))) stderr += `rm: cannot remove '${p}': ${r.message}\n`;
        }
        return result(stderr ? 1 : 0, "", stderr);
      }
      default:
        return result(127, "", `${program}: not understood by the in-memory world (it runs echo, cat, touch, rm, true and false)\n`);
    }
  }

  /** Every path under the roots, as the measurer reports it; a file that only grew carries the hash of what it was. */
  async snapshot(previous?: Snapshot): Promise<Snapshot> {
    if (this.closed) throw coded("closed", "world is closed");
    const snap: Snapshot = new Map();
    for (const [path, node] of [...this.nodes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (!ROOTS.some((r) => under(path, r))) continue;
      snap.set(path, this.worlds.entry(node, previous?.get(path)));
    }
    return snap;
  }

  async runHiddenTest(_dir: string, opts: { command?: readonly string[] } = {}): Promise<HiddenTestResult> {
    if (opts.command) throw new Error(`the in-memory world runs no programs (${opts.command.join(" ")})`);
    const files = new Map<string, string>();
    for (const [p, n] of this.nodes) if (n.type === "file") files.set(p, n.content);
    const passed = this.worlds.spec.test?.(files) ?? true;
    return {
      exitCode: passed ? 0 : 1,
      signal: null,
      stdout: passed ? "PASS\n" : "FAIL\n",
      stderr: "",
      timedOut: false,
      truncated: false,
      durationMs: 0,
      tamper: { tampered: false, changes: [] },
    };
  }

  async runAgentProcess(argv: string[], _opts: AgentProcessOptions): Promise<ExecResult> {
    throw new Error(`the in-memory world runs no agent product (${argv[0]})`);
  }

  async expire(): Promise<void> {
    if (!this.closed) this.trialTimedOut = true;
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

export class FakeWorlds implements Worlds {
  readonly counts: FakeWorldCounts = { templates: 0, setUps: 0, clones: 0, escalations: 0, checkpoints: 0, views: 0, discarded: 0, writes: 0 };
  /** Every world made (views and escalated views included), to check that each was closed. */
  readonly made: FakeWorld[] = [];
  /** File contents by hash: what a file held, to tell an append from a rewrite. */
  private readonly contents = new Map<string, string>();

  constructor(readonly spec: FakeWorldSpec) {}

  private world(env: FakeEnv, readOnly = false): FakeWorld {
    const w = new FakeWorld(this, env, readOnly);
    this.made.push(w);
    return w;
  }

  private initial(): FakeEnv {
    return createFakeEnv({ files: { ...this.spec.files }, dirs: [...(this.spec.dirs ?? [])] });
  }

  /** Worlds made for a trial or a view that are still open (templates are closed when made). */
  open(): FakeWorld[] {
    return this.made.filter((w) => !w.closed);
  }

  entry(node: FakeNode, was: SnapshotEntry | undefined): SnapshotEntry {
    if (node.type === "dir") return { type: "dir", size: 4096, mode: 0o755 };
    if (node.type === "symlink") return { type: "symlink", size: node.target.length, mode: 0o777, target: node.target };
    const hash = sha256(node.content);
    this.contents.set(hash, node.content);
    const old = was?.type === "file" && was.hash !== undefined ? this.contents.get(was.hash) : undefined;
    const grew = old !== undefined && node.content.length > old.length && node.content.startsWith(old);
    return { type: "file", size: Buffer.byteLength(node.content), mode: node.mode ?? 0o644, hash, ...(grew ? { appendOf: was!.hash } : {}) };
  }

  private own(world: WorldHandle): FakeWorld {
    if (!(world instanceof FakeWorld)) throw new Error("the in-memory worlds copy only worlds they made");
    return world;
  }

  async template(_task: LoadedTask): Promise<WorldTemplate> {
    this.counts.templates += 1;
    const world = this.world(this.initial());
    await world.close();
    return { world, remove: async () => undefined };
  }

  async setUp(_task: LoadedTask, _options: CreateWorldOptions): Promise<WorldHandle> {
    this.counts.setUps += 1;
    return this.world(this.initial());
  }

  async clone(world: WorldHandle, _overrides?: Partial<CreateWorldOptions>): Promise<WorldHandle> {
    this.counts.clones += 1;
    return this.world(envOver(this.own(world).nodes));
  }

  async escalated(world: WorldHandle): Promise<WorldHandle> {
    this.counts.escalations += 1;
    return this.world(this.own(world).env);
  }

  async checkpoint(world: WorldHandle): Promise<Checkpoint> {
    this.counts.checkpoints += 1;
    return new FakeCheckpoint(envOver(this.own(world).nodes));
  }

  async view(checkpoint: Checkpoint, _options: CreateWorldOptions): Promise<WorldHandle> {
    if (!(checkpoint instanceof FakeCheckpoint) || checkpoint.discarded) throw new Error("not a checkpoint of these worlds (or one already discarded)");
    this.counts.views += 1;
    return this.world(checkpoint.env, true);
  }

  async discard(checkpoint: Checkpoint): Promise<void> {
    if (!(checkpoint instanceof FakeCheckpoint)) throw new Error("not a checkpoint of these worlds");
    this.counts.discarded += 1;
    checkpoint.discarded = true;
  }
}
