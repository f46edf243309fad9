/**
 * gatebench init [--dir DIR] [--force]
 *
 * Writes gatebench's starter files into a repository (the cwd, or --dir), from starter/ beside
 * this file: a gate configuration stacking a built-in layer and a placeholder hook
 * (gatebench/gates/my-stack.yaml, my-hook.mjs), a folder of tasks with one example task that
 * validates (gatebench/tasks/), and a GitHub workflow that runs gatebench on the repository's
 * pull requests and posts the table as one sticky comment (.github/workflows/gatebench.yml).
 * An existing file is never overwritten without --force: then nothing is written, exit 2.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { InputError } from "../../../kernel/errors.ts";
import { PACKAGE_ROOT } from "../../../kernel/package-root.ts";
import { renderHelp, type FlagHelp } from "./help.ts";
import { parseCli, runIfMain } from "./main.ts";
import { sayOut } from "../../text/redact/terminal.ts";

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

/** Write the starter files into `dir`; without `force`, any that exists already is bad input and nothing is written. */
export function writeStarter(dir: string, opts: { force?: boolean; version?: string } = {}): StarterFile[] {
  const files = starterFiles(opts.version);
  const existing = files.filter((f) => existsSync(path.join(dir, f.path)));
  if (existing.length > 0 && !opts.force)
    throw new InputError(
      "gatebench init",
      existing.map((f) => f.path).join(", "),
      `files that do not exist yet in ${dir} (nothing was written; --force overwrites them)`,
    );
  for (const f of files) {
    const target = path.join(dir, f.path);
    mkdirSync(path.dirname(target), { recursive: true, mode: 0o755 });
    writeFileSync(target, f.text);
    chmodSync(target, f.mode);
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
      "Next:",
      "  gatebench validate --tasks-dir gatebench/tasks",
      "  gatebench eval --gates none,layered,mine=gatebench/gates/my-stack.yaml --tasks-dir gatebench/tasks",
      "Replace gatebench/gates/my-hook.mjs with your hook, add tasks (gatebench new-task <id>), and commit.",
      "",
    ].join("\n"),
  );
  return 0;
}

runIfMain(import.meta.url, () => initMain(process.argv.slice(2)));
