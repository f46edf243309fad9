/**
 * gatebench init [--dir DIR] [--force]
 *
 * Writes gatebench's starter files into a repository (the cwd, or --dir), from starter/ beside
 * this file: a gate configuration stacking a built-in layer and a placeholder hook
 * (gatebench/gates/my-stack.yaml, my-hook.mjs), a folder of tasks with one example task that
 * validates (gatebench/tasks/), and a GitHub workflow that runs gatebench on the repository's
 * pull requests and posts the table as one sticky comment (.github/workflows/gatebench.yml).
 * An existing file is never overwritten without --force: then nothing is written, exit 2.
 *
 * A cloned repository may hold links, so every target is checked before anything is written:
 * each folder on its way must lead (links resolved) to a place inside the repository, and the
 * file itself must be absent or a regular file with one name (not a link, FIFO or hard link);
 * otherwise nothing is written, exit 2, naming the path. A file is opened without following a
 * link, and an existing one keeps its mode.
 */
import {
  closeSync,
  constants,
  existsSync,
  fchmodSync,
  fstatSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
  type Stats,
} from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { InputError } from "../../../kernel/errors.ts";
import { PACKAGE_ROOT } from "../../../kernel/package-root.ts";
import { renderHelp, type FlagHelp } from "./help.ts";
import { parseCli, runIfMain } from "./main.ts";
import { sayOut } from "../../text/redact/terminal.ts";
import { isInside, kindOf } from "../../sandbox/files/contained.ts";

export const STARTER_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "starter");

/** starter/<from> is written to <dir>/<to>: `github/` becomes `.github/` (a dot folder does not travel well in a package). */
const RENAMES: readonly [string, string][] = [["github/", ".github/"]];

/** The version written into the workflow: the gatebench that wrote it. */
function gatebenchVersion(): string {
  return String((JSON.parse(readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { version?: unknown }).version ?? "latest");
}

export interface StarterFile {
  /** Path relative to the target folder. */
  path: string;
  text: string;
  mode: number;
}

/** The starter files, with their target paths and modes (scripts stay executable). */
export function starterFiles(version = gatebenchVersion()): StarterFile[] {
  const out: StarterFile[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(STARTER_DIR, rel)).sort()) {
      const from = path.posix.join(rel, name);
      const st = statSync(path.join(STARTER_DIR, from));
      if (st.isDirectory()) walk(from);
      else {
        const to = RENAMES.reduce((p, [a, b]) => (p.startsWith(a) ? b + p.slice(a.length) : p), from);
        const text = readFileSync(path.join(STARTER_DIR, from), "utf8").replaceAll("@@GATEBENCH_VERSION@@", version);
        out.push({ path: to, text, mode: st.mode & 0o111 ? 0o755 : 0o644 });
      }
    }
  };
  walk("");
  return out;
}

function lstatOrUndefined(p: string): Stats | undefined {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

/**
 * Why `rel` cannot be written inside `root` (the repository, resolved), or undefined when it can:
 * every existing folder on the way leads inside the repository, and the file is absent or a
 * regular file with one name.
 */
function unsafeTarget(root: string, rel: string): string | undefined {
  const parts = rel.split("/");
  let at = root;
  for (let i = 0; i < parts.length; i++) {
    at = path.join(at, parts[i]!);
    const st = lstatOrUndefined(at);
    if (!st) return undefined; // the rest is created, inside what was checked
    const last = i === parts.length - 1;
    if (st.isSymbolicLink()) {
      if (last) return `${at} is a link (init never writes through a link)`;
      let real: string;
      try {
        real = realpathSync(at);
      } catch {
        return `${at} is a link that leads nowhere`;
      }
      if (!isInside(real, root)) return `${at} is a link out of the repository (to ${real})`;
      if (!statSync(real).isDirectory()) return `${at} leads to ${real}, which is not a folder`;
    } else if (!last && !st.isDirectory()) return `${at} is not a folder`;
    else if (last && !st.isFile()) return `${at} is ${kindOf(st)}, not a regular file`;
    else if (last && st.nlink > 1) return `${at} has ${st.nlink} names (a hard link: writing it would change the others)`;
  }
  return undefined;
}

/** Write one file without following a link; an existing file keeps its mode, a new one gets `mode`. */
function writeNoFollow(target: string, text: string, mode: number): void {
  const NOFOLLOW = constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  let fd: number;
  let created = true;
  try {
    fd = openSync(target, NOFOLLOW | constants.O_CREAT | constants.O_EXCL, mode);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    created = false;
    fd = openSync(target, NOFOLLOW);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.nlink > 1) throw new InputError("gatebench init", target, "a regular file with one name (it changed while init ran)");
    ftruncateSync(fd, 0);
    writeFileSync(fd, text);
    // A new file gets its mode exactly (the umask may have taken bits); an existing one keeps its own.
    if (created) fchmodSync(fd, mode);
  } finally {
    closeSync(fd);
  }
}

/** Write the starter files into `dir`; without `force`, any that exists already is bad input and nothing is written. */
export function writeStarter(dir: string, opts: { force?: boolean; version?: string } = {}): StarterFile[] {
  const files = starterFiles(opts.version);
  const root = realpathSync(dir);
  const unsafe = files.map((f) => [f.path, unsafeTarget(root, f.path)] as const).filter(([, why]) => why !== undefined);
  if (unsafe.length > 0)
    throw new InputError(
      "gatebench init",
      unsafe.map(([p]) => p).join(", "),
      `paths inside ${dir} that init may write (nothing was written): ${unsafe.map(([, why]) => why).join("; ")}`,
    );
  const existing = files.filter((f) => lstatOrUndefined(path.join(root, f.path)));
  if (existing.length > 0 && !opts.force)
    throw new InputError(
      "gatebench init",
      existing.map((f) => f.path).join(", "),
      `files that do not exist yet in ${dir} (nothing was written; --force overwrites them)`,
    );
  for (const f of files) {
    const target = path.join(root, f.path);
    mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 });
    writeNoFollow(target, f.text, f.mode);
  }
  return files;
}

const OPTIONS = {
  dir: { type: "string" },
  force: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const FLAGS: FlagHelp<typeof OPTIONS> = {
  dir: ["DIR", "the repository to write into (default: the current folder)"],
  force: "overwrite files that exist already",
  help: "this text",
};

export function initHelp(): string {
  return renderHelp({
    usage: ["gatebench init [flags]"],
    summary: [
      "Writes gatebench's starter files into your repository:",
      "  gatebench/gates/my-stack.yaml   a gate configuration: a built-in layer and your hook (my-hook.mjs, a placeholder)",
      "  gatebench/tasks/                your tasks, with one example that validates",
      "  .github/workflows/gatebench.yml runs gatebench on pull requests and posts the table as one sticky comment",
      "An existing file is never overwritten without --force.",
    ].join("\n"),
    options: OPTIONS,
    flags: FLAGS,
  });
}

export async function initMain(argv: string[]): Promise<number> {
  const { values: a, positionals } = parseCli(argv, OPTIONS, true);
  if (a.help) {
    sayOut(initHelp());
    return 0;
  }
  if (positionals.length > 0) throw new InputError("command line", positionals[0]!, "no arguments but --dir DIR and --force");
  const dir = path.resolve(a.dir ?? ".");
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new InputError("command line", "--dir", `an existing folder (${dir} is none)`);
  const files = writeStarter(dir, { force: a.force === true });
  sayOut(
    [
      `Wrote into ${dir}:`,
      ...files.map((f) => `  ${f.path}`),
      "",
      "Next (npx finds the gatebench of this project's node_modules):",
      "  npx gatebench validate --tasks-dir gatebench/tasks",
      "  npx gatebench eval --gates none,layered,mine=gatebench/gates/my-stack.yaml --tasks-dir gatebench/tasks",
      "Replace gatebench/gates/my-hook.mjs with your hook, add tasks (npx gatebench new-task <id>), and commit.",
      "",
    ].join("\n"),
  );
  return 0;
}

runIfMain(import.meta.url, () => initMain(process.argv.slice(2)));
