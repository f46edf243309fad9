/**
 * A hook command string (`cc-safety-net hook --coding-cli`, `node hooks/guard.mjs`,
 * `test/fixtures/hooks/deny.sh`) turned into an argv that runs inside the trial's sandbox:
 * - an npm bin name found in node_modules/.bin -> /opt/gatebench/node_modules/.bin/<name>
 * - a file of the host (absolute, or relative to `baseDir`: the folder of the configuration file
 *   that names it, the cwd for `--gates claude-hook:...`, gatebench's own folder for a built-in
 *   configuration) -> bound read-only under
 *   /opt/gatebench/hooks/<i>/<name> (files under node_modules map to /opt/gatebench/node_modules)
 * - anything else (bash, node, /usr/bin/python3, flags) is passed as written: the sandbox has /usr.
 * The string is split like a shell would split words (quotes, backslashes), never run by one.
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { DEPENDENCIES_DIR as NODE_MODULES, PACKAGE_ROOT } from "../../../kernel/package-root.ts";
import { GATE_HOOKS_MOUNT, GATE_NODE_MODULES_MOUNT } from "../../../kernel/sandbox-paths.ts";
import type { GateProcessBind } from "../../types.ts";

/** Host trees the sandbox already shows at the same path. */
const SYSTEM_PREFIXES = ["/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/etc/"];

export interface HookCommand {
  argv: string[];
  binds: GateProcessBind[];
  /** Host files the command runs (its binds, and files under node_modules) and the npm packages whose bins it runs. */
  sources: { files: string[]; packages: string[] };
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
export function resolveHookCommand(command: string, env: Readonly<Record<string, string>> = {}, baseDir: string = PACKAGE_ROOT): HookCommand {
  const words = splitCommand(command);
  if (words.length === 0) throw new Error("an empty command");
  const binds: GateProcessBind[] = [];
  const sources: HookCommand["sources"] = { files: [], packages: [] };
  const argv = words.map((w, i) => {
    if (i === 0 && !w.includes("/")) {
      const bin = path.join(NODE_MODULES, ".bin", w);
      if (!existsSync(bin)) return w;
      const pkg = packageOfBin(w);
      if (pkg) sources.packages.push(pkg);
      return `${GATE_NODE_MODULES_MOUNT}/.bin/${w}`;
    }
    if (!w.includes("/") || w.startsWith("-") || SYSTEM_PREFIXES.some((p) => w.startsWith(p))) return w;
    const host = path.resolve(baseDir, w);
    if (!isHostFile(host)) {
      if (i === 0) throw new Error(`the hook program ${w} (${host}) is not a file`);
      return w;
    }
    sources.files.push(host);
    if (host.startsWith(NODE_MODULES + "/")) return `${GATE_NODE_MODULES_MOUNT}/${path.relative(NODE_MODULES, host)}`;
    const sandboxPath = `${GATE_HOOKS_MOUNT}/${binds.length}/${path.basename(host)}`;
    binds.push({ hostPath: host, sandboxPath });
    return sandboxPath;
  });
  const envWords = Object.entries(env).map(([k, v]) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw new Error(`an environment variable name, got ${JSON.stringify(k)}`);
    return `${k}=${v}`;
  });
  // The sandbox starts with a clear environment; env(1) adds the hook's own variables.
  return { argv: envWords.length > 0 ? ["/usr/bin/env", ...envWords, ...argv] : argv, binds, sources };
}
