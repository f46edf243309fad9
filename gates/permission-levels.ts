/**
 * Permission levels in the style of a desktop agent: every tool has a level; only Read runs without a
 * question; Write, Destructive and Execute wait for the user, who sees a preview of what the
 * call will do. The preview is prepared without side effects: only EnvView lstat/realpath/
 * readFile/readdir questions, never the tool itself.
 */
import { InputError } from "../kernel/errors.ts";
import { TOOL_PERMISSIONS, type PermissionLevel } from "../kernel/tools.ts";
import { lexicalAbsolute } from "./path-policy/paths.ts";
import { type Decision, type EnvView, type Gate, type GateContext, type ProposedCall, type Risk, type GateDefinition, moduleBeside } from "./types.ts";

const RISK: Record<PermissionLevel, Risk> = { Read: "low", Write: "medium", Destructive: "high", Execute: "high" };

/**
 * The level a call runs under: the level the tool definition declares (call.permission), else
 * the table. A known tool is never downgraded to Read by a declaration; an unknown tool with
 * no declared level has none (and is denied).
 */
export function permissionOf(call: ProposedCall): PermissionLevel | undefined {
  const table = TOOL_PERMISSIONS[call.tool];
  const declared = call.permission;
  if (declared === undefined) return table;
  if (declared === "Read" && table !== undefined && table !== "Read") return table;
  return declared;
}

const fmt = new Intl.NumberFormat("en-US");
const countLines = (s: string): number => (s === "" ? 0 : s.split("\n").length - (s.endsWith("\n") ? 1 : 0));
const plural = (n: number, one: string): string => `${fmt.format(n)} ${one}${n === 1 ? "" : "s"}`;

/** What an existing path is, for previews: "file, 10 lines" / "directory" / "symlink to X". */
async function describeExisting(
  path: string,
  env: EnvView,
): Promise<
  | { kind: "missing" }
  | { kind: "file"; lines: number; bytes: number }
  | { kind: "dir"; entries: number | null }
  | { kind: "symlink"; target: string | null }
  | { kind: "other" }
> {
  const st = await env.lstat(path);
  if (st === null) return { kind: "missing" };
  if (st.type === "symlink") return { kind: "symlink", target: await env.realpath(path) };
  if (st.type === "dir") return { kind: "dir", entries: (await env.readdir(path))?.length ?? null };
  if (st.type === "file") {
    const content = await env.readFile(path);
    return { kind: "file", lines: content === null ? 0 : countLines(content), bytes: st.size };
  }
  return { kind: "other" };
}

function linkNote(target: string | null): string {
  return target === null ? "symlink whose target does not exist" : `symlink to ${target}`;
}

export async function previewCall(call: ProposedCall, env: EnvView): Promise<{ preview: string; resources: string[] }> {
  const args = call.args;
  const pathOf = (): string | null => (typeof args.path === "string" ? lexicalAbsolute(args.path, env.cwd, env.home) : null);
  switch (call.tool) {
    case "write": {
      const path = pathOf();
      if (path === null || typeof args.content !== "string") break;
      const bytes = Buffer.byteLength(args.content, "utf8");
      const now = await describeExisting(path, env);
      const what =
        now.kind === "missing"
          ? "new file"
          : now.kind === "file"
            ? `replaces ${plural(now.lines, "line")}`
            : now.kind === "symlink"
              ? `writes through ${linkNote(now.target)}`
              : now.kind === "dir"
                ? "a directory is there: the write will fail"
                : "replaces a special file";
      return { preview: `Write ${plural(bytes, "byte")} to ${path} (${what})`, resources: [path] };
    }
    case "edit": {
      const path = pathOf();
      if (path === null || !Array.isArray(args.edits)) break;
      const edits = args.edits as { oldText?: unknown; newText?: unknown }[];
      const removed = edits.reduce((n, e) => n + (typeof e.oldText === "string" ? countLines(e.oldText) : 0), 0);
      const added = edits.reduce((n, e) => n + (typeof e.newText === "string" ? countLines(e.newText) : 0), 0);
      const now = await describeExisting(path, env);
      const where = now.kind === "symlink" ? ` (through ${linkNote(now.target)})` : now.kind === "missing" ? " (file does not exist)" : "";
      return {
        preview: `Edit ${path}${where}: ${plural(edits.length, "replacement")}, -${fmt.format(removed)}/+${fmt.format(added)} lines`,
        resources: [path],
      };
    }
    case "delete": {
      const path = pathOf();
      if (path === null) break;
      const recursive = args.recursive === true;
      const now = await describeExisting(path, env);
      const what =
        now.kind === "missing"
          ? "does not exist"
          : now.kind === "file"
            ? `file, ${plural(now.bytes, "byte")}`
            : now.kind === "dir"
              ? `directory${recursive ? ", recursive" : ""}${now.entries === null ? "" : `, ${plural(now.entries, "entry").replace("entrys", "entries")}`}`
              : now.kind === "symlink"
                ? `${linkNote(now.target)}; only the link is removed`
                : "special file";
      return { preview: `Delete ${path} (${what})`, resources: [path] };
    }
    case "bash": {
      if (typeof args.command !== "string") break;
      return { preview: `Run: ${args.command}`, resources: [] };
    }
  }
  return { preview: `${call.tool} ${JSON.stringify(args)}`, resources: [] };
}

export function createPermissionLevelsGate(options: Record<string, unknown>, where: string): Gate {
  const unknown = Object.keys(options);
  if (unknown.length > 0) throw new InputError(where, `with.${unknown[0]}`, "permission-levels takes no options");
  return {
    name: "permission-levels",
    async decide(call: ProposedCall, ctx: GateContext): Promise<Decision> {
      const permission = permissionOf(call);
      if (permission === undefined) return { kind: "deny", code: "unknown_tool", reason: `no permission level for the tool "${call.tool}"` };
      if (permission === "Read") return { kind: "allow", reason: "Read permission" };
      const { preview, resources } = await previewCall(call, ctx.env);
      return {
        kind: "confirm",
        title: `Agent wants to use ${call.tool}`,
        description: `${preview}\nPermission: ${permission}`,
        resources,
        risk: RISK[permission],
      };
    },
  };
}

export const permissionLevelsLayer: GateDefinition = {
  name: "permission-levels",
  summary: "every tool has a level; only Read runs without a question, the rest confirm with a side-effect-free preview",
  modules: [moduleBeside(import.meta.url, "./permission-levels.ts")],
  create: createPermissionLevelsGate,
};
