/**
 * Resolving an operand to the real object it denotes, through the read-only EnvView (answered
 * inside the sandbox, so planted links are never followed on the host).
 *
 * Kernel semantics: every intermediate symlink is followed; a `..` after a symlink goes to the
 * parent of the link's target, not of the link; a final symlink is followed for read/write
 * ("target") and not followed when judging the link itself ("link") — unless the operand is in
 * directory form (`link/`, `link/.`), which the kernel always follows. A file that does not exist
 * yet resolves through its nearest existing parent; a dangling link resolves to where the write
 * would create the file. When the operand holds `..`, a tool that normalises lexically (Node's
 * path.resolve, as Pi's tools do for relative paths) may open a different object than the
 * kernel would; that second reading is reported in `alternates` so policies judge both.
 */
import { posix } from "node:path";
import type { EnvView } from "../types.ts";
import { endsInDirectoryForm, expandPath, normaliseAbsolute } from "./paths.ts";

export type LinkMode = "target" | "link";

export interface ResolvedTarget {
  /** The operand as given. */
  input: string;
  /** Lexical absolute path (cwd, `~`, `.`/`..` and duplicate slashes applied; no links followed). */
  absolute: string;
  /** The object the operation reaches (links followed per mode, nearest existing parent for new files). */
  real: string;
  exists: boolean;
  /** A symlink was met on the way (followed, or the final link judged as itself). */
  viaLink: boolean;
  /** Other real paths the operand may denote when a tool resolves `..` lexically; usually empty. */
  alternates: string[];
}

/** Thrown when an operand cannot be resolved (a link loop, a link that cannot be read). */
export class PathResolutionError extends Error {
  override name = "PathResolutionError";
}

const MAX_LINK_HOPS = 40;

interface Reached {
  real: string;
  exists: boolean;
  viaLink: boolean;
}

class Walker {
  private hops = 0;
  constructor(private readonly env: EnvView) {}

  /** Any absolute path, possibly holding `.`, `..`, duplicate or trailing slashes. */
  async resolve(raw: string, followFinal: boolean): Promise<Reached> {
    const parts = raw.split("/").filter((p) => p !== "" && p !== ".");
    const up = parts.indexOf("..");
    if (up < 0) return this.resolveClean(normaliseAbsolute("/" + parts.join("/")), followFinal);
    // The prefix before the first `..` is walked for real (its links followed), then `..` climbs.
    const before = await this.resolveClean(normaliseAbsolute("/" + parts.slice(0, up).join("/")), true);
    const parent = posix.dirname(before.real);
    const rest = parts.slice(up + 1);
    if (rest.length === 0) {
      return { real: parent, exists: before.exists, viaLink: before.viaLink };
    }
    const after = await this.resolve(parent + "/" + rest.join("/"), followFinal);
    return { ...after, viaLink: after.viaLink || before.viaLink };
  }

  /** A normalised absolute path without `..`. */
  private async resolveClean(path: string, followFinal: boolean): Promise<Reached> {
    if (followFinal) {
      const real = await this.env.realpath(path);
      // Without `..`, a realpath can differ from its input only through a symlink.
      if (real !== null) return { real, exists: true, viaLink: real !== path };
    }
    if (path === "/") return { real: "/", exists: true, viaLink: false };
    const parent = await this.resolveClean(posix.dirname(path), true);
    const candidate = posix.join(parent.real, posix.basename(path));
    if (!parent.exists) return { real: candidate, exists: false, viaLink: parent.viaLink };
    const st = await this.env.lstat(candidate);
    if (st === null) return { real: candidate, exists: false, viaLink: parent.viaLink };
    if (st.type !== "symlink") return { real: candidate, exists: true, viaLink: parent.viaLink };
    if (!followFinal) return { real: candidate, exists: true, viaLink: true };
    // realpath failed on an existing link: it dangles (or loops). Follow it by hand: a write
    // through a dangling link creates the file at the link's target.
    if (++this.hops > MAX_LINK_HOPS) throw new PathResolutionError(`too many levels of symbolic links at ${candidate}`);
    const text = await this.env.readlink(candidate);
    if (text === null) throw new PathResolutionError(`cannot read symbolic link ${candidate}`);
    const next = await this.resolve(posix.isAbsolute(text) ? text : parent.real + "/" + text, true);
    return { ...next, viaLink: true };
  }
}

export async function resolveTarget(input: string, env: EnvView, opts: { links?: LinkMode; cwd?: string } = {}): Promise<ResolvedTarget> {
  const cwd = opts.cwd ?? env.cwd;
  const expanded = expandPath(input, env.home);
  const absolute = posix.resolve(cwd, expanded);
  const followFinal = (opts.links ?? "target") === "target" || endsInDirectoryForm(expanded);
  const operand = posix.isAbsolute(expanded) ? expanded : cwd + "/" + expanded;
  const walker = new Walker(env);
  const reached = await walker.resolve(operand, followFinal);
  const alternates: string[] = [];
  if (operand.split("/").includes("..")) {
    const lexical = await walker.resolve(absolute, followFinal);
    if (lexical.real !== reached.real) alternates.push(lexical.real);
  }
  return { input, absolute, real: reached.real, exists: reached.exists, viaLink: reached.viaLink, alternates };
}
