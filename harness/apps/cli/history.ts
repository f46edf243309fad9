/**
 * npm run history -- <folder or files...> [--gates a,b] [--format claude-code|pi|codex|inspect|atif] [--top N] [--json]
 *
 * Your own agent sessions as a corpus: every tool call of the sessions found (folders walked
 * recursively) decided under the gates, without running anything; per gate the friction (calls
 * asked about or denied per 100), the commands behind most of it and the wrong blocks (denied,
 * but the session shows the call succeeding and being kept). Secrets are redacted in the output.
 */
import { loadGateForFlag } from "../explain/decide.ts";
import { formatHistoryReport, historyReport } from "../history/report.ts";
import { findSessionFiles, readHistory } from "../history/sessions.ts";
import { InputError } from "../../../kernel/errors.ts";
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from "../../model/task/schema.ts";
import { checkSandboxAccess } from "../../sandbox/world/access.ts";
import { sayErr, sayJson, sayOut } from "../../text/redact/terminal.ts";
import { intFlag, parseCli, runIfMain } from "./main.ts";

const OPTIONS = {
  gates: { type: "string" },
  format: { type: "string" },
  top: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** The gates a history is decided under unless --gates says: Pi's example gate, the shell analysis, the recommended stack. */
export const DEFAULT_HISTORY_GATES = "pi-permission-gate,shell-ast,layered";

/** history's whole help. */
export function historyHelp(): string {
  return `usage: gatebench history <folder or files...> [--gates ${DEFAULT_HISTORY_GATES}] [--format ${TRANSCRIPT_FORMATS.join("|")}]
                         [--top 5] [--json]
       npm run history -- <folder or files...> [flags]   (in a gatebench checkout)

Reads your own agent sessions (folders are searched recursively for .jsonl, .json and .eval files in the
formats npm run import knows: ${TRANSCRIPT_FORMATS.join(", ")}; e.g. ~/.claude/projects for Claude Code,
~/.codex/sessions for Codex), and decides every tool call they made under each gate, the way
explain --corpus does: nothing is run, and the gates see an empty world. The session's project root
becomes /workspace and its home /home/user. Per gate:
  friction        the share of the real calls it would have asked about or denied, per 100 calls
  top commands    the commands (program and subcommand) behind most of that friction, --top N of them
  wrong blocks    calls it denies that the session shows succeeding and being kept (no later undo)
Secrets are redacted in the output; --json prints the report as one JSON document.
  -h, --help      this text`;
}

export async function main(argv: string[] = process.argv.slice(2)): Promise<number> {
  const { values: a, positionals } = parseCli(argv, OPTIONS, true);
  if (a.help) {
    sayOut(`${historyHelp()}\n`);
    return 0;
  }
  if (positionals.length === 0) throw new InputError("command line", "<folder or files>", "one or more folders or files of agent sessions");
  if (a.format !== undefined && !(TRANSCRIPT_FORMATS as readonly string[]).includes(a.format))
    throw new InputError("command line", "--format", `one of ${TRANSCRIPT_FORMATS.join(", ")}`);
  const top = intFlag(a.top, "--top", 5);
  const gates = (a.gates ?? DEFAULT_HISTORY_GATES)
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((n) => loadGateForFlag(n, "--gates"));
  const files = findSessionFiles(positionals);
  const { sessions, skipped } = readHistory(files, a.format as TranscriptFormat | undefined);
  if (sessions.length === 0)
    throw new InputError(
      "command line",
      positionals.join(" "),
      `agent sessions in one of the formats ${TRANSCRIPT_FORMATS.join(", ")} (${files.length} candidate file(s), none readable as a session${
        skipped.length
          ? `: ${skipped
              .slice(0, 3)
              .map((s) => `${s.file}: ${s.reason}`)
              .join("; ")}${skipped.length > 3 ? `; and ${skipped.length - 3} more` : ""}`
          : ""
      })`,
    );
  // Deciding needs a sandbox world (an empty one), which could not start without reaching what it binds.
  checkSandboxAccess();
  const report = await historyReport(gates, sessions, skipped, files.length, top);
  if (a.json) sayJson("stdout", report);
  else {
    sayOut(`${formatHistoryReport(report)}\n`);
    if (report.unmappable.length) sayErr(`${report.unmappable.length} call(s) with no gatebench equivalent were not decided (--json lists them)\n`);
  }
  return 0;
}

runIfMain(import.meta.url, () => main());
