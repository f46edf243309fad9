/**
 * A hook command string (`cc-safety-net hook --coding-cli`, `node hooks/guard.mjs`,
 * `test/fixtures/hooks/deny.sh`) turned into an argv that runs inside the trial's sandbox, every
 * word read as the user's shell would read it from the configuration's folder (`baseDir`: the
 * folder of the configuration file that names it, the cwd for `--gates claude-hook:...`,
 * gatebench's own folder for a built-in configuration), never from the task's world:
 * - a bare program name: an npm bin of node_modules/.bin -> /opt/gatebench/node_modules/.bin/<name>,
 *   else the program the host's PATH finds (a name found nowhere is bad input);
 * - the script an interpreter runs (`node guard.mjs`, `python3 hook.py`), bare or not, and every
 *   other word with a `/` that names a host file: that file;
 * - a host file under /usr, /bin, /sbin, /lib, /lib64 or /etc is passed by its absolute path (the
 *   sandbox shows those trees as they are); one under gatebench's node_modules is seen at
 *   /opt/gatebench/node_modules; any other comes with its package (or its own folder:
 *   ../../host-files.ts, bundleRootOf), bound read-only under /opt/gatebench/hooks/<i>/, so the
 *   modules it imports load as they do on the host;
 * - anything else (flags, arguments, inline code) is passed as written.
 * Every program and script so found is a source of the gate: a trial's fingerprint hashes it,
 * and the folders it brings along, wherever they live.
 * The string is split like a shell would split words (quotes, backslashes), never run by one.
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { DEPENDENCIES_DIR as NODE_MODULES, PACKAGE_ROOT } from "../../../kernel/package-root.ts";
import { GATE_HOOKS_MOUNT, GATE_NODE_MODULES_MOUNT } from "../../../kernel/sandbox-paths.ts";
import { bundleRootOf, findOnPath } from "../../host-files.ts";
import type { GateProcessBind } from "../../types.ts";

/** Host trees the sandbox already shows at the same path. */
const SYSTEM_PREFIXES = ["/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/etc/"];

export interface HookCommand {
  argv: string[];
  binds: GateProcessBind[];
  /**
   * Host files the command runs (programs and scripts, wherever they live, and files under
   * node_modules), the folders bound with them, and the npm packages whose bins it runs.
   */
  sources: { files: string[]; packages: string[]; folders?: string[] };
  /**
   * What to say when the command does not start in the sandbox: set when the program came from
   * the host's PATH outside the system folders, where only its own folder is bound.
   */
  startHint?: string;
}

/** Programs that run a script named by their first operand. */
const INTERPRETER = /^(?:node|nodejs|bun|tsx|ts-node|python[0-9.]*|pypy[0-9.]*|bash|sh|dash|zsh|ksh|ruby|perl|php)$/;
/** Options after which the interpreter runs inline code or a module, not a script file. */
const NO_SCRIPT = new Set(["-c", "-e", "--eval", "-p", "--print", "-m", "-"]);
/** Options whose value is the next word. */
const TAKES_VALUE = new Set(["-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions", "-W", "-X"]);

/** The index of the script word of an interpreter's command, or undefined when it runs none. */
export function scriptWordIndex(words: readonly string[]): number | undefined {
  if (words.length === 0 || !INTERPRETER.test(path.basename(words[0]!))) return undefined;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (NO_SCRIPT.has(w)) return undefined;
    if (TAKES_VALUE.has(w)) {
      i++;
      continue;
    }
    if (w.startsWith("-")) continue;
    return i;
  }
  return undefined;
}

/** The npm package that provides node_modules/.bin/<name>, read from the bin's link. */
function packageOfBin(name: string): string | undefined {
  try {
    const target = realpathSync(path.join(NODE_MODULES, ".bin", name));
    const rel = path.relative(NODE_MODULES, target).split(path.sep);
    return rel[0]?.startsWith("@") ? `${rel[0]}/${rel[1]}` : rel[0];
  } catch {
    return undefined;
  }
}

/** Shell-like word splitting: '...' literal, "..." with \\ \" \$ \` escapes, \\x outside quotes. */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let cur = "";
  let inWord = false;
  let i = 0;
  while (i < command.length) {
    const c = command[i]!;
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) throw new Error("unterminated single quote");
      cur += command.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      i++;
      for (;;) {
        if (i >= command.length) throw new Error("unterminated double quote");
        const d = command[i]!;
        if (d === '"') break;
        if (d === "\\" && i + 1 < command.length && '\\"$`'.includes(command[i + 1]!)) {
          cur += command[i + 1];
          i += 2;
        } else {
          cur += d;
          i++;
        }
      }
      inWord = true;
      i++;
    } else if (c === "\\") {
      if (i + 1 >= command.length) throw new Error("trailing backslash");
      cur += command[i + 1];
      inWord = true;
      i += 2;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(cur);
      cur = "";
      inWord = false;
      i++;
    } else {
      cur += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(cur);
  return words;
}

function isHostFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** Throws an Error saying what is wrong; the factory turns it into an InputError. */
export function resolveHookCommand(
  command: string,
  env: Readonly<Record<string, string>> = {},
  baseDir: string = PACKAGE_ROOT,
  pathVar: string | undefined = process.env.PATH,
): HookCommand {
  const words = splitCommand(command);
  if (words.length === 0) throw new Error("an empty command");
  const binds: GateProcessBind[] = [];
  const sources: Required<HookCommand["sources"]> = { files: [], packages: [], folders: [] };
  /** Bound folders (or lone files) by host path: one bind each, however many words lie in it. */
  const bound = new Map<string, string>();
  const hostFile = (file: string): string => {
    const real = realpathSync(file);
    sources.files.push(real);
    // by the name it was found under (a multi-call program reads its argv[0]), when the sandbox shows both
    if (SYSTEM_PREFIXES.some((p) => real.startsWith(p))) return SYSTEM_PREFIXES.some((p) => file.startsWith(p)) ? file : real;
    if (real.startsWith(NODE_MODULES + "/")) return `${GATE_NODE_MODULES_MOUNT}/${path.relative(NODE_MODULES, real)}`;
    const root = bundleRootOf(real);
    let mount = bound.get(root);
    if (mount === undefined) {
      mount = `${GATE_HOOKS_MOUNT}/${binds.length}/${path.basename(root)}`;
      bound.set(root, mount);
      binds.push({ hostPath: root, sandboxPath: mount });
      if (root !== real) sources.folders.push(root);
    }
    return root === real ? mount : `${mount}/${path.relative(root, real).split(path.sep).join("/")}`;
  };
  const script = scriptWordIndex(words);
  let startHint: string | undefined;
  const argv = words.map((w, i) => {
    if (i === 0 && !w.includes("/")) {
      const bin = path.join(NODE_MODULES, ".bin", w);
      if (existsSync(bin)) {
        const pkg = packageOfBin(w);
        if (pkg) sources.packages.push(pkg);
        return `${GATE_NODE_MODULES_MOUNT}/.bin/${w}`;
      }
      const found = findOnPath(w, pathVar);
      if (!found) throw new Error(`the hook program ${w} is neither an npm bin of gatebench nor found on PATH`);
      if (!SYSTEM_PREFIXES.some((p) => realpathSync(found).startsWith(p)))
        startHint =
          `the host's PATH gave ${w} as ${found}, outside the system folders the sandbox shows; only its own folder is ` +
          `bound, so a version manager's shim (pyenv, nvm, asdf) or a program that needs files elsewhere cannot start: ` +
          `name the program by a path under /usr or /bin (e.g. /usr/bin/${w})`;
      return hostFile(found);
    }
    if (i === script) {
      const host = path.resolve(baseDir, w);
      if (!isHostFile(host))
        throw new Error(`the hook script ${w} (${host}) is not a file: a script is read from the configuration's folder, never from the task's world`);
      return hostFile(host);
    }
    if (!w.includes("/") || w.startsWith("-")) return w;
    const host = path.resolve(baseDir, w);
    if (!isHostFile(host)) {
      if (i === 0) throw new Error(`the hook program ${w} (${host}) is not a file`);
      return w;
    }
    return hostFile(host);
  });
  const envWords = Object.entries(env).map(([k, v]) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw new Error(`an environment variable name, got ${JSON.stringify(k)}`);
    return `${k}=${v}`;
  });
  // The sandbox starts with a clear environment; env(1) adds the hook's own variables.
  return { argv: envWords.length > 0 ? ["/usr/bin/env", ...envWords, ...argv] : argv, binds, sources, ...(startHint ? { startHint } : {}) };
}
