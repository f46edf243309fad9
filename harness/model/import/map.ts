/**
 * Recorded tool calls onto gatebench's tools (Pi's names and arguments plus `delete`), with
 * paths moved from the recorded project root to /workspace and the recorded home to
 * /home/user. A call that cannot be mapped is returned as such, with the reason. Pure.
 */
import { shQuote } from "../../text/shell.ts";
import type { RecordedCall } from "./types.ts";

export interface MappedCall {
  tool: string;
  args: Record<string, unknown>;
}

export type MapResult = { ok: true; calls: MappedCall[] } | { ok: false; reason: string };

export interface PathMap {
  /** [recorded prefix, sandbox prefix], longest recorded prefix first. */
  roots: [string, string][];
}

export function pathMap(opts: { root?: string | undefined; home?: string | undefined; extra?: [string, string][] | undefined }): PathMap {
  const roots: [string, string][] = [...(opts.extra ?? [])];
  const root = opts.root?.replace(/\/+$/, "");
  if (root) roots.push([root, "/workspace"]);
  const home = (opts.home ?? (root ? /^(\/home\/[^/]+|\/Users\/[^/]+|\/root)(?=\/|$)/.exec(root)?.[1] : undefined))?.replace(/\/+$/, "");
  if (home && home !== "/home/user") roots.push([home, "/home/user"]);
  roots.sort((a, b) => b[0].length - a[0].length);
  return { roots };
}

/** Rewrite every occurrence of a recorded root in a string (only at path-component boundaries). */
export function rewritePaths(s: string, map: PathMap): string {
  let out = s;
  for (const [from, to] of map.roots) {
    const re = new RegExp(`${from.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?=$|[/\\s'"\`;:)|&])`, "g");
    out = out.replace(re, to);
  }
  return out;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (o: Obj, ...keys: string[]): string | undefined => {
  for (const k of keys) if (typeof o[k] === "string") return o[k] as string;
  return undefined;
};

/** A command given as argv (Codex `shell`): the script of `bash -lc <script>`, else the words quoted. */
function commandFromArgv(argv: unknown[]): string | undefined {
  if (!argv.every((a) => typeof a === "string")) return undefined;
  const words = argv as string[];
  if (words.length >= 3 && /(^|\/)(ba|z)?sh$/.test(words[0]!) && /^-l?c$/.test(words[1]!)) return words.slice(2).join(" ");
  return words.map(shQuote).join(" ");
}

/** Codex apply_patch: *** Add File / *** Update File (hunks) / *** Delete File. */
export function mapApplyPatch(patch: string): MapResult {
  const lines = patch.replace(/\r\n/g, "\n").split("\n");
  const calls: MappedCall[] = [];
  let i = lines.findIndex((l) => l.trim() === "*** Begin Patch");
  if (i < 0) return { ok: false, reason: "apply_patch input without *** Begin Patch" };
  i++;
  while (i < lines.length && lines[i]!.trim() !== "*** End Patch") {
    const line = lines[i]!;
    let m: RegExpExecArray | null;
    if ((m = /^\*\*\* Add File: (.+)$/.exec(line))) {
      const body: string[] = [];
      for (i++; i < lines.length && lines[i]!.startsWith("+"); i++) body.push(lines[i]!.slice(1));
      calls.push({ tool: "write", args: { path: m[1]!.trim(), content: body.length ? `${body.join("\n")}\n` : "" } });
    } else if ((m = /^\*\*\* Delete File: (.+)$/.exec(line))) {
      calls.push({ tool: "delete", args: { path: m[1]!.trim() } });
      i++;
    } else if ((m = /^\*\*\* Update File: (.+)$/.exec(line))) {
      const path = m[1]!.trim();
      i++;
      if (/^\*\*\* Move to: /.test(lines[i] ?? "")) return { ok: false, reason: `apply_patch moves ${path}: a rename has no gatebench tool` };
      const edits: { oldText: string; newText: string }[] = [];
      let oldL: string[] = [];
      let newL: string[] = [];
      const flush = () => {
        if (oldL.length || newL.length) edits.push({ oldText: oldL.join("\n"), newText: newL.join("\n") });
        oldL = [];
        newL = [];
      };
      for (; i < lines.length && !/^\*\*\* /.test(lines[i]!); i++) {
        const l = lines[i]!;
        if (l.startsWith("@@")) flush();
        else if (l.startsWith("-")) oldL.push(l.slice(1));
        else if (l.startsWith("+")) newL.push(l.slice(1));
        else if (l.startsWith(" ")) {
          oldL.push(l.slice(1));
          newL.push(l.slice(1));
        } else if (l === "") {
          oldL.push("");
          newL.push("");
        }
      }
      flush();
      if (edits.length === 0) return { ok: false, reason: `apply_patch update of ${path} without hunks` };
      calls.push({ tool: "edit", args: { path, edits } });
    } else if (line.trim() === "") i++;
    else return { ok: false, reason: `apply_patch line not understood: ${line.slice(0, 80)}` };
  }
  return calls.length ? { ok: true, calls } : { ok: false, reason: "apply_patch with no file operation" };
}

/** Map one recorded call (before path rewriting). */
export function mapCall(call: RecordedCall): MapResult {
  const name = call.name;
  const input = call.input;
  const lower = name.toLowerCase();
  if (lower === "apply_patch") {
    const patch = typeof input === "string" ? input : isObj(input) ? str(input, "input", "patch") : undefined;
    return patch ? mapApplyPatch(patch) : { ok: false, reason: "apply_patch without a patch" };
  }
  if (!isObj(input)) return { ok: false, reason: `${name}: arguments are not an object` };
  if (["bash", "shell", "shell_command", "exec_command", "run_shell_command", "terminal", "run_terminal_cmd"].includes(lower)) {
    const c = input.command ?? input.cmd;
    const command = typeof c === "string" ? c : Array.isArray(c) ? commandFromArgv(c) : undefined;
    if (!command) return { ok: false, reason: `${name}: no command string` };
    const workdir = str(input, "workdir", "cwd");
    return { ok: true, calls: [{ tool: "bash", args: { command: workdir ? `cd ${shQuote(workdir)} && ${command}` : command } }] };
  }
  if (lower === "python") {
    const code = str(input, "code");
    return code ? { ok: true, calls: [{ tool: "bash", args: { command: `python3 -c ${shQuote(code)}` } }] } : { ok: false, reason: "python: no code" };
  }
  const path = str(input, "file_path", "path", "filePath");
  if (lower === "write" || lower === "create_file") {
    const content = str(input, "content", "file_text");
    return path !== undefined && content !== undefined
      ? { ok: true, calls: [{ tool: "write", args: { path, content } }] }
      : { ok: false, reason: `${name}: needs a path and content` };
  }
  if (lower === "read" || lower === "view") return path ? { ok: true, calls: [{ tool: "read", args: { path } }] } : { ok: false, reason: `${name}: no path` };
  if (lower === "edit" || lower === "multiedit") {
    if (!path) return { ok: false, reason: `${name}: no path` };
    const raw = Array.isArray(input.edits) ? input.edits.filter(isObj) : [input];
    const edits = raw.map((e) => ({ oldText: str(e, "old_string", "oldText"), newText: str(e, "new_string", "newText") }));
    if (edits.some((e) => e.oldText === undefined || e.newText === undefined)) return { ok: false, reason: `${name}: every edit needs old and new text` };
    if (raw.some((e) => e.replace_all === true)) return { ok: false, reason: `${name}: replace_all has no gatebench equivalent` };
    return { ok: true, calls: [{ tool: "edit", args: { path, edits } }] };
  }
  if (lower === "text_editor" || lower === "str_replace_based_edit_tool" || lower === "str_replace_editor") {
    const cmd = str(input, "command");
    if (!path) return { ok: false, reason: `${name}: no path` };
    if (cmd === "create") return { ok: true, calls: [{ tool: "write", args: { path, content: str(input, "file_text") ?? "" } }] };
    if (cmd === "view") return { ok: true, calls: [{ tool: "read", args: { path } }] };
    if (cmd === "str_replace")
      return { ok: true, calls: [{ tool: "edit", args: { path, edits: [{ oldText: str(input, "old_str") ?? "", newText: str(input, "new_str") ?? "" }] } }] };
    return { ok: false, reason: `${name}: command ${cmd ?? "(none)"} has no gatebench equivalent` };
  }
  if (lower === "ls" || lower === "list_directory") return { ok: true, calls: [{ tool: "ls", args: path ? { path } : {} }] };
  if (lower === "grep") {
    const pattern = str(input, "pattern");
    return pattern ? { ok: true, calls: [{ tool: "grep", args: { pattern, ...(path ? { path } : {}) } }] } : { ok: false, reason: "grep: no pattern" };
  }
  if (lower === "glob" || lower === "find") {
    const pattern = str(input, "pattern");
    return pattern ? { ok: true, calls: [{ tool: "find", args: { pattern, ...(path ? { path } : {}) } }] } : { ok: false, reason: `${name}: no pattern` };
  }
  if (lower === "delete")
    return path
      ? { ok: true, calls: [{ tool: "delete", args: { path, ...(input.recursive === true ? { recursive: true } : {}) } }] }
      : { ok: false, reason: "delete: no path" };
  return { ok: false, reason: `tool ${name} has no gatebench equivalent` };
}

/** Rewrite recorded roots in every string argument. */
export function rewriteCall(call: MappedCall, map: PathMap): MappedCall {
  const walk = (v: unknown): unknown =>
    typeof v === "string"
      ? rewritePaths(v, map)
      : Array.isArray(v)
        ? v.map(walk)
        : isObj(v)
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
          : v;
  return { tool: call.tool, args: walk(call.args) as Record<string, unknown> };
}
