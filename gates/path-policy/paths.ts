/**
 * Path arithmetic shared by the path gates: Pi's `~`/`@` expansion (resolveToCwd in
 * pi-coding-agent's core/tools/path-utils) and containment by path relation.
 */
import { posix } from "node:path";

const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/**
 * Pi's `expandPath` with the sandbox's HOME instead of the host's: strips one leading `@`,
 * turns Unicode spaces into ASCII spaces, expands `~` and `~/` (not `~user`). Gates must judge
 * the path the tool will open, so they expand exactly as the tool does.
 */
export function expandPath(input: string, home: string): string {
  const s = (input.startsWith("@") ? input.slice(1) : input).replace(UNICODE_SPACES, " ");
  if (s === "~") return home;
  if (s.startsWith("~/")) return home + s.slice(1);
  return s;
}

/** Lexical absolute path, as Pi's resolveToCwd followed by normalisation (no trailing slash). */
export function lexicalAbsolute(input: string, cwd: string, home: string): string {
  return posix.resolve(cwd, expandPath(input, home));
}

/** A `.` or `..` segment of a path. */
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

/**
 * An absolute path that `posix.resolve` returns unchanged: `/`, or slash-separated segments none
 * of which is empty, `.` or `..`, with no trailing slash.
 */
function isResolvedAbsolute(p: string): boolean {
  if (p === "/") return true;
  return p.charCodeAt(0) === 47 && p.charCodeAt(p.length - 1) !== 47 && !p.includes("//") && !DOT_SEGMENT.test(p);
}

/**
 * True when `target` is `root` or lies under it. Decided by path relation, never
 * by string prefix: `/srv/app2` is not inside `/srv/app`. Both paths must be absolute.
 * Two paths already in resolved form (what the gates mostly compare) are related segment by
 * segment without `posix.relative`, which resolves both again; any other pair goes through it.
 */
export function isInside(root: string, target: string): boolean {
  if (isResolvedAbsolute(root) && isResolvedAbsolute(target)) {
    return root === "/" || target === root || (target.startsWith(root) && target.charCodeAt(root.length) === 47);
  }
  const rel = posix.relative(root, target);
  return rel === "" || (rel !== ".." && !rel.startsWith("../") && !posix.isAbsolute(rel));
}

/** The operand names a directory form (`x/`, `x/.`, `x/..`, `.`, `..`): the kernel follows a final symlink. */
export function endsInDirectoryForm(path: string): boolean {
  return path.endsWith("/") || path === "." || path === ".." || path.endsWith("/.") || path.endsWith("/..");
}

/** Normalised absolute path without a trailing slash. */
export function normaliseAbsolute(path: string): string {
  const n = posix.normalize(path);
  return n.length > 1 && n.endsWith("/") ? n.slice(0, -1) : n;
}

/** `/a/b/c` -> [`/a/b/c`, `/a/b`, `/a`, `/`]. */
export function selfAndAncestors(path: string): string[] {
  const out = [path];
  let p = path;
  while (p !== "/") {
    p = posix.dirname(p);
    out.push(p);
  }
  return out;
}
