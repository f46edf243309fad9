/**
 * An in-memory EnvView for unit tests: directories, files and symlinks with kernel path
 * semantics (intermediate links followed, `..` after a link climbs from the link's target,
 * link loops fail like ELOOP). Tests build a tree and ask gates about it without a sandbox.
 *
 *   const env = createFakeEnv({
 *     files: { "/workspace/a.txt": "hello\n" },
 *     dirs: ["/workspace/build"],
 *     links: { "/workspace/photos": "/home/user/Photos" },
 *   });
 */
import picomatch from "picomatch";
import { posix } from "node:path";
import type { EnvView, FileType, LstatInfo } from "../../gates/types.ts";

export type FakeNode = { type: "dir" } | { type: "file"; content: string; mode?: number } | { type: "symlink"; target: string };

export interface FakeEnvSpec {
  cwd?: string;
  home?: string;
  files?: Record<string, string>;
  dirs?: string[];
  /** link path -> link text (absolute or relative to the link's directory). */
  links?: Record<string, string>;
}

export interface FakeEnv extends EnvView {
  /** Real path -> node; keys are normalised absolute paths. */
  readonly nodes: Map<string, FakeNode>;
  /** Number of EnvView calls answered, per method. */
  readonly calls: Record<"realpath" | "lstat" | "readlink" | "glob" | "readFile" | "readdir", number>;
  addFile(path: string, content: string): void;
  addDir(path: string): void;
  addLink(path: string, target: string): void;
  /**
   * Test oracle, not part of EnvView: the object a write to this absolute path would reach
   * (kernel semantics, final link followed, the file need not exist); null when the kernel
   * would fail (missing parent, link loop).
   */
  kernelTarget(path: string): string | null;
}

const MAX_HOPS = 40;
class Loop extends Error {}

export function createFakeEnv(spec: FakeEnvSpec = {}): FakeEnv {
  const nodes = new Map<string, FakeNode>([["/", { type: "dir" }]]);
  const calls = { realpath: 0, lstat: 0, readlink: 0, glob: 0, readFile: 0, readdir: 0 };

  function ensureDir(path: string): void {
    if (path === "/") return;
    ensureDir(posix.dirname(path));
    const existing = nodes.get(path);
    if (!existing) nodes.set(path, { type: "dir" });
    else if (existing.type !== "dir") throw new Error(`fake-env: ${path} is not a directory`);
  }
  function put(path: string, node: FakeNode): void {
    const p = posix.normalize(path).replace(/(.)\/$/, "$1");
    if (!p.startsWith("/")) throw new Error(`fake-env: paths must be absolute (${path})`);
    ensureDir(posix.dirname(p));
    nodes.set(p, node);
  }

  /**
   * Walk like the kernel. Returns the real path of the last component (the link itself when
   * followFinal is false and the last component is a link) and whether it exists; null when an
   * intermediate component is missing or not a directory.
   */
  function walk(path: string, followFinal: boolean, hops = { n: 0 }): { real: string; node: FakeNode | undefined } | null {
    const parts = path.split("/").filter((s) => s !== "" && s !== ".");
    let cur = "/";
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      const last = i === parts.length - 1 && !/\/\.?$/.test(path);
      const dirNode = nodes.get(cur);
      if (!dirNode || dirNode.type !== "dir") return null;
      if (part === "..") {
        cur = posix.dirname(cur);
        continue;
      }
      const next = cur === "/" ? `/${part}` : `${cur}/${part}`;
      const node = nodes.get(next);
      if (!node) {
        if (last || i === parts.length - 1) return { real: next, node: undefined };
        return null;
      }
      if (node.type === "symlink" && (!last || followFinal)) {
        if (++hops.n > MAX_HOPS) throw new Loop();
        const target = node.target.startsWith("/") ? node.target : `${cur}/${node.target}`;
        const r = walk(target, true, hops);
        if (!r) return null;
        if (!r.node) return i === parts.length - 1 ? r : null;
        cur = r.real;
        continue;
      }
      cur = next;
    }
    return { real: cur, node: nodes.get(cur) };
  }
  function safeWalk(path: string, followFinal: boolean) {
    try {
      return walk(path, followFinal);
    } catch (e) {
      if (e instanceof Loop) return null;
      throw e;
    }
  }
  function lstatNode(path: string): FakeNode | undefined {
    return safeWalk(path, false)?.node;
  }
  function typeOf(node: FakeNode): FileType {
    return node.type;
  }

  for (const d of spec.dirs ?? []) put(d, { type: "dir" });
  for (const [p, c] of Object.entries(spec.files ?? {})) put(p, { type: "file", content: c });
  for (const [p, t] of Object.entries(spec.links ?? {})) put(p, { type: "symlink", target: t });
  for (const d of ["/workspace", "/home/user", "/tmp"]) if (!nodes.has(d)) put(d, { type: "dir" });

  return {
    cwd: spec.cwd ?? "/workspace",
    home: spec.home ?? "/home/user",
    nodes,
    calls,
    addFile: (p, c) => put(p, { type: "file", content: c }),
    addDir: (p) => put(p, { type: "dir" }),
    addLink: (p, t) => put(p, { type: "symlink", target: t }),
    kernelTarget(path) {
      return safeWalk(path, true)?.real ?? null;
    },
    async realpath(path) {
      calls.realpath++;
      const r = safeWalk(path, true);
      return r && r.node ? r.real : null;
    },
    async lstat(path): Promise<LstatInfo | null> {
      calls.lstat++;
      const node = lstatNode(path);
      if (!node) return null;
      const size = node.type === "file" ? Buffer.byteLength(node.content) : node.type === "symlink" ? node.target.length : 4096;
      const mode = node.type === "file" ? (node.mode ?? 0o644) : node.type === "dir" ? 0o755 : 0o777;
      return { type: typeOf(node), size, mode };
    },
    async readlink(path) {
      calls.readlink++;
      const node = lstatNode(path);
      return node?.type === "symlink" ? node.target : null;
    },
    async glob(pattern) {
      calls.glob++;
      const isMatch = picomatch(pattern.slice(1));
      return [...nodes.keys()].filter((p) => p !== "/" && isMatch(p.slice(1))).sort();
    },
    async readFile(path) {
      calls.readFile++;
      const node = lstatNode(path);
      return node?.type === "file" ? node.content : null;
    },
    async readdir(path) {
      calls.readdir++;
      const r = safeWalk(path, false);
      if (!r || r.node?.type !== "dir") return null;
      const prefix = r.real === "/" ? "/" : `${r.real}/`;
      return [...nodes.keys()].filter((p) => p !== r.real && p.startsWith(prefix) && !p.slice(prefix.length).includes("/")).map((p) => p.slice(prefix.length)).sort();
    },
  };
}

/** A GateContext over an EnvView whose UI must not be used (these gates return decisions instead). */
export function fakeGateContext(env: EnvView, runId = "test-run"): import("../../gates/types.ts").GateContext {
  return {
    env,
    signal: new AbortController().signal,
    runId,
    ui: {
      hasUI: true,
      confirm: async () => {
        throw new Error("fake-env: this gate must not ask the UI itself");
      },
    },
  };
}
