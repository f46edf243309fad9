/**
 * Which protected project resources a workspace ships (those Pi loads from a project): `.pi/settings.json`,
 * `.pi/extensions`, `.pi/skills`, `.pi/prompts`, `.pi/themes`, `.pi/SYSTEM.md`,
 * `.pi/APPEND_SYSTEM.md`, looked up in the current directory only. An empty `.pi` does not need
 * trust; neither does an empty `skills/`, `prompts/`, `themes/` or an `extensions/` with nothing
 * Pi would load.
 *
 * Everything is read through EnvView, i.e. inside the sandbox and never through a link. A link
 * where a resource is expected counts as a resource (it needs trust: we cannot see what it holds)
 * but is never loaded.
 */
import { posix } from "node:path";
import type { EnvView } from "../types.ts";

export type ResourceKind = "settings" | "extension" | "skills" | "prompts" | "themes" | "system-prompt" | "append-system-prompt" | "link";

export interface ProjectResource {
  kind: ResourceKind;
  /** Sandbox path of the file or directory. */
  path: string;
}

/** An extension Pi would load from `.pi/extensions` (loader.js `discoverExtensionsInDir`). */
export interface ProjectExtensionEntry {
  /** The entry file, e.g. /workspace/.pi/extensions/x.ts or .../x/index.ts. */
  file: string;
  /** The directory to copy with it (a directory extension), or undefined for a single file. */
  dir?: string;
  /** Why it cannot be loaded (a link), if so. */
  unloadable?: string;
}

export interface ProjectResources {
  cwd: string;
  resources: ProjectResource[];
  extensions: ProjectExtensionEntry[];
}

const FILE_RESOURCES: [string, ResourceKind][] = [
  ["settings.json", "settings"],
  ["SYSTEM.md", "system-prompt"],
  ["APPEND_SYSTEM.md", "append-system-prompt"],
];
const DIR_RESOURCES: [string, ResourceKind][] = [
  ["skills", "skills"],
  ["prompts", "prompts"],
  ["themes", "themes"],
];

const isExtensionFile = (name: string) => name.endsWith(".ts") || name.endsWith(".js");

export async function discoverProjectResources(env: EnvView, cwd: string): Promise<ProjectResources> {
  const root = posix.resolve(cwd);
  const out: ProjectResources = { cwd: root, resources: [], extensions: [] };
  const piDir = posix.join(root, ".pi");
  const piStat = await env.lstat(piDir);
  if (!piStat) return out;
  if (piStat.type !== "dir") {
    out.resources.push({ kind: "link", path: piDir });
    return out;
  }
  const names = new Set((await env.readdir(piDir)) ?? []);

  for (const [name, kind] of FILE_RESOURCES) {
    if (!names.has(name)) continue;
    const p = posix.join(piDir, name);
    const st = await env.lstat(p);
    if (st) out.resources.push({ kind: st.type === "symlink" ? "link" : kind, path: p });
  }
  for (const [name, kind] of DIR_RESOURCES) {
    if (!names.has(name)) continue;
    const p = posix.join(piDir, name);
    const st = await env.lstat(p);
    if (!st) continue;
    if (st.type === "symlink") out.resources.push({ kind: "link", path: p });
    else if (st.type !== "dir" || ((await env.readdir(p)) ?? []).length > 0) out.resources.push({ kind, path: p });
  }
  if (names.has("extensions")) await discoverExtensions(env, posix.join(piDir, "extensions"), out);
  return out;
}

async function discoverExtensions(env: EnvView, dir: string, out: ProjectResources): Promise<void> {
  const st = await env.lstat(dir);
  if (!st) return;
  if (st.type === "symlink") {
    out.resources.push({ kind: "link", path: dir });
    return;
  }
  if (st.type !== "dir") return;
  // Pi keeps readdir order, which the file system decides; sorted names make trials repeatable.
  const names = [...((await env.readdir(dir)) ?? [])].sort();
  for (const name of names) {
    const p = posix.join(dir, name);
    const entry = await env.lstat(p);
    if (!entry) continue;
    if (entry.type === "symlink") {
      // Pi follows it (file or directory); gatebench never reads through a link.
      out.resources.push({ kind: "link", path: p });
      out.extensions.push({ file: p, unloadable: "a symbolic link (gatebench never follows links in a world)" });
    } else if (entry.type === "file" && isExtensionFile(name)) {
      out.resources.push({ kind: "extension", path: p });
      out.extensions.push({ file: p });
    } else if (entry.type === "dir") {
      for (const file of await directoryEntries(env, p)) {
        out.resources.push({ kind: "extension", path: file });
        out.extensions.push({ file, dir: p });
      }
    }
  }
}

/** loader.js `resolveExtensionEntries`: package.json `pi.extensions`, else index.ts, else index.js. */
async function directoryEntries(env: EnvView, dir: string): Promise<string[]> {
  const manifest = await env.readFile(posix.join(dir, "package.json"));
  if (manifest !== null) {
    let declared: unknown;
    try {
      declared = (JSON.parse(manifest) as { pi?: { extensions?: unknown } })?.pi?.extensions;
    } catch {
      declared = undefined;
    }
    if (Array.isArray(declared) && declared.length > 0) {
      const found: string[] = [];
      for (const rel of declared) {
        if (typeof rel !== "string") continue;
        const file = posix.resolve(dir, rel);
        if ((await env.lstat(file))?.type === "file") found.push(file);
      }
      if (found.length > 0) return found;
    }
  }
  for (const index of ["index.ts", "index.js"]) {
    const file = posix.join(dir, index);
    if ((await env.lstat(file))?.type === "file") return [file];
  }
  return [];
}
