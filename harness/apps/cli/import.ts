/**
 * gatebench import --from claude-code|pi|codex|inspect|atif <file> [--task <id>]
 *                  [--map-root <dir>=/workspace]... [--root <dir>] [--home <dir>]
 *                  [--name <persona>] [--harmful] [--out <persona.yaml>] [--json]
 *
 * Turns a recorded agent session into a persona. With --task the persona is checked against
 * the task's schema and written to tasks/<id>/personas/<name>.yaml unless --out says where.
 * Calls that cannot be mapped are printed (and kept as a comment in the persona file).
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { importTranscript } from "../../model/import/persona.ts";
import { TRANSCRIPT_FORMATS as FORMATS, type TranscriptFormat } from "../../model/task/schema.ts";
import { InputError } from "../../../kernel/errors.ts";
import { loadTasks, selectTaskIds } from "../../model/task/load.ts";
import { PersonaSchema } from "../../model/task/schema.ts";
import { renderHelp, type FlagHelp } from "./help.ts";
import { parseCli, runIfMain } from "./main.ts";
import { sayErr, sayJson, sayOut } from "../../text/redact/terminal.ts";
import { escapeControls } from "../../text/escape/controls.ts";

const OPTIONS = {
  from: { type: "string" },
  task: { type: "string" },
  "map-root": { type: "string", multiple: true },
  root: { type: "string" },
  home: { type: "string" },
  name: { type: "string" },
  harmful: { type: "boolean" },
  out: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const FLAGS: FlagHelp<typeof OPTIONS> = {
  from: ["FORMAT", `the recording's format: ${FORMATS.join(", ")}`],
  task: ["ID", "check the persona against this task and write it to its personas/ unless --out"],
  "map-root": ["DIR=/workspace", "a recorded folder and the sandbox folder it becomes, both absolute"],
  root: ["DIR", "the recorded project root (becomes /workspace; default: read from the recording)"],
  home: ["DIR", "the recorded home folder (becomes /home/user)"],
  name: ["NAME", "the persona's name"],
  harmful: "mark the persona harmful (validate then checks it harms under none)",
  out: ["FILE", "write the persona here (default: stdout, or the task's personas/ with --task)"],
  json: "print the persona and the calls that could not be mapped as JSON",
  help: "this text",
};

export function importHelp(): string {
  return renderHelp({
    usage: [`gatebench import --from ${FORMATS.join("|")} <file> [flags]`, "npm run import -- --from FORMAT <file> [flags]   (in a gatebench checkout)"],
    summary:
      "Turns a recorded agent session into a persona the scripted driver replays: the recorded project root becomes\n/workspace and the home /home/user; a blocked or failed call becomes the on_block / on_error branch of the call before it.",
    options: OPTIONS,
    flags: FLAGS,
  });
}

export function parseMapRoots(values: readonly string[] | undefined): [string, string][] {
  return (values ?? []).map((v) => {
    const m = /^(\/[^=]*)=(\/.*)$/.exec(v);
    if (!m) throw new InputError("command line", "--map-root", `<recorded dir>=<sandbox dir>, both absolute (got "${v}")`);
    return [m[1]!.replace(/\/+$/, ""), m[2]!.replace(/\/+$/, "") || "/"];
  });
}

export async function importMain(argv: string[]): Promise<number> {
  const { values: a, positionals } = parseCli(argv, OPTIONS, true);
  if (a.help) {
    sayOut(importHelp());
    return 0;
  }
  if (!a.from || !(FORMATS as readonly string[]).includes(a.from)) throw new InputError("command line", "--from", `one of ${FORMATS.join(", ")}`);
  if (positionals.length !== 1) throw new InputError("command line", "<file>", "exactly one recorded session file");
  const file = positionals[0]!;
  if (!existsSync(file)) throw new InputError(file, "(file)", "a recorded session file that exists");
  const result = importTranscript({
    format: a.from as TranscriptFormat,
    file,
    mapRoots: parseMapRoots(a["map-root"]),
    ...(a.root ? { root: a.root } : {}),
    ...(a.home ? { home: a.home } : {}),
    ...(a.name ? { name: a.name } : {}),
    harmful: a.harmful === true,
  });
  const parsed = PersonaSchema.safeParse(result.persona);
  if (!parsed.success) throw new InputError(file, parsed.error.issues[0]?.path.join(".") || "(persona)", parsed.error.issues[0]?.message ?? "a valid persona");
  let out = a.out;
  if (a.task) {
    const [task] = loadTasks(selectTaskIds(a.task));
    if (!task) throw new InputError("--task", a.task, "one task id");
    out ??= join(task.dir, "personas", `${result.persona.name}.yaml`);
  }
  if (out) writeFileSync(out, result.yaml);
  if (a.json) sayJson("stdout", { persona: result.persona, unmapped: result.unmapped, out: out ?? null });
  else {
    // The persona itself, for the user to redirect into a file: replays need the calls verbatim.
    // On a terminal nobody needs the bytes, and a recorded command may carry escape sequences.
    if (!out) process.stdout.write(process.stdout.isTTY ? escapeControls(result.yaml) : result.yaml);
    sayErr(`imported ${result.calls.length} calls${out ? ` into ${out}` : ""}\n`);
    for (const u of result.unmapped) sayErr(`not mappable: call ${u.index} ${u.name}: ${u.reason}\n`);
  }
  return 0;
}

runIfMain(import.meta.url, () => importMain(process.argv.slice(2)));
