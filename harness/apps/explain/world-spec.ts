/**
 * The world an explanation is decided on: a task's world (its setup.sh), a copy of a host
 * directory as the workspace, or a small YAML list of files. Files are created from inside the
 * sandbox (one bash script per batch, contents base64-encoded), so the world's ownership and
 * layout stay the world module's business.
 *
 *   # world.yaml
 *   - path: src/app.ts            # relative: under /workspace
 *     content: "export {}\n"
 *   - path: ~/Photos/cat.jpg       # ~: under /home/user
 *   - path: scripts/run.sh
 *     content: "#!/bin/sh\n"
 *     mode: "0755"
 *   - path: photos                 # a symbolic link
 *     symlink: /home/user/Photos
 *   - path: empty/                 # a trailing slash: a directory
 */
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join, posix } from "node:path";
import { z } from "zod";
import { InputError } from "../../../kernel/errors.ts";
import { parseYaml } from "../../../kernel/yaml.ts";
import { SchemaError } from "../../../kernel/schema-errors.ts";
import { HOME, WORKSPACE } from "../../../kernel/sandbox-paths.ts";
import type { World } from "../../sandbox/world/types.ts";

export interface WorldFile {
  /** Absolute sandbox path. */
  path: string;
  kind: "file" | "dir" | "symlink";
  content?: Buffer;
  mode?: number;
  target?: string;
}

/** What the explanation's world was built from; `empty` means no files at all were put in it. */
export type WorldSource = { kind: "empty" } | { kind: "task"; task: string } | { kind: "dir"; dir: string } | { kind: "files"; file: string };

const Mode = z.union([z.number().int().min(0).max(0o7777), z.string().regex(/^0?[0-7]{3,4}$/, 'an octal mode such as "0644"')]);

const WorldFileSchema = z
  .strictObject({
    path: z.string().min(1),
    content: z.string().optional(),
    mode: Mode.optional(),
    symlink: z.string().min(1).optional(),
  })
  .refine((f) => !(f.symlink !== undefined && (f.content !== undefined || f.mode !== undefined)), {
    message: "a symlink takes no content or mode",
    path: ["symlink"],
  });

export const WorldFileListSchema = z.array(WorldFileSchema);

/** `~/x` -> /home/user/x, `x` -> /workspace/x, absolute paths unchanged; `..` is resolved. */
export function sandboxPathOf(p: string): string {
  if (p === "~" || p.startsWith("~/")) return posix.normalize(HOME + p.slice(1));
  return posix.normalize(p.startsWith("/") ? p : `${WORKSPACE}/${p}`);
}

function modeOf(m: number | string | undefined): number | undefined {
  if (m === undefined) return undefined;
  return typeof m === "number" ? m : Number.parseInt(m, 8);
}

/** Parse a `--world <file.yaml>` list of files. */
export function readWorldFile(file: string): WorldFile[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new InputError(file, "(file)", "a readable YAML list of files (path, content, mode, symlink)");
  }
  const input = parseYaml(text, file, []);
  const parsed = WorldFileListSchema.safeParse(input);
  if (!parsed.success) throw new SchemaError(file, parsed.error.issues, input);
  return parsed.data.map((f) => {
    const path = sandboxPathOf(f.path);
    if (f.symlink !== undefined) return { path, kind: "symlink", target: f.symlink };
    const mode = modeOf(f.mode);
    if (f.path.endsWith("/") && f.content === undefined) return { path, kind: "dir", ...(mode !== undefined ? { mode } : {}) };
    return { path, kind: "file", content: Buffer.from(f.content ?? ""), ...(mode !== undefined ? { mode } : {}) };
  });
}

/** Everything under a host directory (links kept as links, never followed), as /workspace files. */
export function readWorldDir(dir: string, maxBytes = 32 * 1024 * 1024): WorldFile[] {
  let top;
  try {
    top = lstatSync(dir);
  } catch {
    throw new InputError("--world-dir", dir, "an existing directory to copy as the workspace");
  }
  if (!top.isDirectory()) throw new InputError("--world-dir", dir, "a directory (got a file or a link)");
  const out: WorldFile[] = [];
  let bytes = 0;
  const walk = (host: string, sandbox: string) => {
    for (const name of readdirSync(host).sort()) {
      const h = join(host, name);
      const s = `${sandbox}/${name}`;
      const st = lstatSync(h);
      const mode = st.mode & 0o7777;
      if (st.isSymbolicLink()) out.push({ path: s, kind: "symlink", target: readlinkSync(h) });
      else if (st.isDirectory()) {
        out.push({ path: s, kind: "dir", mode });
        walk(h, s);
      } else if (st.isFile()) {
        bytes += st.size;
        if (bytes > maxBytes) throw new InputError("--world-dir", dir, `at most ${maxBytes / 1024 / 1024} MB of files`);
        out.push({ path: s, kind: "file", content: readFileSync(h), mode });
      }
    }
  };
  walk(dir, WORKSPACE);
  return out;
}

const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

/** Shell lines that create one entry; a large file is written in appended chunks. */
function scriptFor(f: WorldFile): string[] {
  const parent = q(posix.dirname(f.path));
  const chmod = f.mode !== undefined ? [`chmod ${f.mode.toString(8)} ${q(f.path)}`] : [];
  if (f.kind === "dir") return [`mkdir -p ${q(f.path)}`, ...chmod];
  if (f.kind === "symlink") return [`mkdir -p ${parent} && ln -sfn ${q(f.target ?? "")} ${q(f.path)}`];
  const content = f.content ?? Buffer.alloc(0);
  const chunks: string[] = [];
  for (let i = 0; i < content.length; i += CHUNK) chunks.push(`printf %s ${q(content.subarray(i, i + CHUNK).toString("base64"))} | base64 -d >> ${q(f.path)}`);
  return [`mkdir -p ${parent} && : > ${q(f.path)}`, ...chunks, ...chmod];
}

/** Raw bytes per line: a line (base64, 4/3 larger) stays far below the 128 KiB limit of one argument. */
const CHUNK = 24 * 1024;

/** Create the files inside the world's sandbox, in batches that stay well under argument limits. */
export async function populateWorld(world: World, files: readonly WorldFile[]): Promise<void> {
  const batches: string[][] = [[]];
  let size = 0;
  for (const line of files.flatMap(scriptFor)) {
    if (size + line.length > 64 * 1024 && batches.at(-1)!.length > 0) {
      batches.push([]);
      size = 0;
    }
    batches.at(-1)!.push(line);
    size += line.length;
  }
  for (const batch of batches) {
    if (batch.length === 0) continue;
    const r = await world.exec(`set -e\n${batch.join("\n")}\n`, { timeoutMs: 30_000 });
    if (r.exitCode !== 0) throw new Error(`could not build the world: ${r.stderr.trim().slice(-300)}`);
  }
}
