/**
 * gatebench explain --gate <name> [world] [--json] --bash '<command>'
 * gatebench explain --gate <name> [world] [--json] --tool <name> --args '<json>'
 * gatebench explain --gate <name>[,<name>...] [world] [--json] --corpus <file.yaml|file.jsonl>
 * (in a checkout: bin/explain ... or npm run explain -- ...)
 *
 * world: --task <id> [--tasks-dir <dir>]... (the task's setup.sh), --world-dir <dir> (a copy of a directory as the
 * workspace) or --world <file.yaml> (a list of files); none of them: an empty world, which the
 * output says, since gates that resolve targets may decide differently on a real world.
 *
 * Builds the world, runs the gate stack on the call without executing it, and prints the
 * decision, the reason, every parsed command and every resolved target. With --corpus it
 * decides every labelled call of the corpus under every gate and prints recall on danger,
 * pass rate on benign, the misses, the false stops and the decision latency.
 * Fast start: `node dist/explain.mjs ...` (built by `npm run build:explain`, or `bin/explain`).
 */
import { resolveTarget } from "../../../gates/path-policy/index.ts";
import { analyzeBash } from "../../../gates/shell/analyze.ts";
import type { ConfirmRequest, EnvView, ProposedCall } from "../../../gates/types.ts";
import { InputError } from "../../../kernel/errors.ts";
import { formatCorpusReport, readCorpus, runCorpus, EMPTY_WORLD_NOTE } from "../explain/corpus.ts";
import { decideCall, gateOnWorld, loadGateForFlag, openWorld, type WorldChoice } from "../explain/decide.ts";
import type { WorldSource } from "../explain/world-spec.ts";
import { TOOL_NAMES, TOOL_PERMISSIONS } from "../../../kernel/tools.ts";
import { gatesSection, renderHelp, type FlagHelp } from "./help.ts";
import { parseCli, runIfMain } from "./main.ts";
import { redactArgv } from "../../text/redact/redact.ts";
import { sayJson, sayOut } from "../../text/redact/terminal.ts";
import { checkSandboxAccess } from "../../sandbox/world/access.ts";

const OPTIONS = {
  gate: { type: "string" },
  task: { type: "string" },
  "tasks-dir": { type: "string", multiple: true },
  "world-dir": { type: "string" },
  world: { type: "string" },
  bash: { type: "string" },
  tool: { type: "string" },
  args: { type: "string" },
  corpus: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const FLAGS: FlagHelp<typeof OPTIONS> = {
  gate: ["NAME", "the gate configuration to ask (several, comma-separated, only with --corpus); any --gates form below"],
  task: ["ID", "the world: this task's, built by its setup.sh"],
  "tasks-dir": ["DIR", "a folder of task folders where --task (or a corpus entry's task:) is looked up beside the built-in tasks"],
  "world-dir": ["DIR", "the world: a copy of this folder as /workspace"],
  world: ["FILE", "the world: a YAML list of files (path, content, mode, symlink)"],
  bash: ["COMMAND", "the call: a bash command"],
  tool: ["NAME", `the call: a tool (${TOOL_NAMES.join(", ")}) with --args`],
  args: ["JSON", "the tool's arguments as a JSON object"],
  corpus: ["FILE", "decide every labelled call of a corpus (YAML or JSONL) under every --gate"],
  json: "print the explanation (or the corpus report) as JSON",
  help: "this text",
};

export function explainHelp(): string {
  return renderHelp({
    usage: [
      "gatebench explain --gate NAME [world] [--json] --bash 'COMMAND'",
      "gatebench explain --gate NAME [world] [--json] --tool NAME --args 'JSON'",
      "gatebench explain --gate NAME[,NAME...] [--tasks-dir DIR] [--json] --corpus FILE",
    ],
    summary: [
      "Decides one call (or a corpus of labelled calls) under a gate configuration without running it, on a world built",
      "in a sandbox, and prints the decision, each layer's verdict, the parsed commands and the resolved targets. Without",
      "--task, --world-dir or --world the world is empty (gates that resolve targets may decide differently on a real one).",
    ].join("\n"),
    options: OPTIONS,
    flags: FLAGS,
    sections: [gatesSection(undefined, "--gate")],
  });
}

export interface Explanation {
  decision: "allow" | "confirm" | "deny";
  reason: string;
  code?: string;
  gate?: string;
  commands: { argv: string[]; depth: number }[];
  targets: { op: string; path: string; real?: string; exists?: boolean; why?: string }[];
  layers: { gate: string; decision: string; reason: string }[];
  questions: ConfirmRequest[];
  world: WorldSource & { note?: string };
}

function parseCall(a: { bash?: string | undefined; tool?: string | undefined; args?: string | undefined }): ProposedCall {
  if (a.bash !== undefined) {
    if (a.tool || a.args) throw new InputError("command line", "--bash", "either --bash or --tool/--args, not both");
    return { id: "explain", tool: "bash", args: { command: a.bash }, permission: "Execute" };
  }
  if (!a.tool) throw new InputError("command line", "--bash", "a command (--bash '<command>'), a call (--tool <name> --args '<json>') or --corpus <file>");
  if (!(TOOL_NAMES as readonly string[]).includes(a.tool)) throw new InputError("command line", "--tool", `one of ${TOOL_NAMES.join(", ")}`);
  let args: unknown = {};
  if (a.args !== undefined) {
    try {
      args = JSON.parse(a.args);
    } catch {
      throw new InputError("command line", "--args", 'a JSON object, e.g. \'{"path": ".env"}\'');
    }
  }
  if (!args || typeof args !== "object" || Array.isArray(args)) throw new InputError("command line", "--args", "a JSON object");
  const permission = TOOL_PERMISSIONS[a.tool];
  return { id: "explain", tool: a.tool, args: args as Record<string, unknown>, ...(permission ? { permission } : {}) };
}

async function targetsOf(call: ProposedCall, env: EnvView): Promise<Pick<Explanation, "commands" | "targets">> {
  if (call.tool === "bash") {
    const analysis = await analyzeBash(String(call.args.command ?? ""), env);
    return {
      commands: analysis.commands.map((c) => ({ argv: [...c.argv], depth: c.depth })),
      targets: [
        ...analysis.effects.map((e) => ({ op: e.op, path: e.path, why: e.why })),
        ...analysis.unknowns.map((u) => ({ op: "unknown", path: "", why: u })),
      ],
    };
  }
  const path = call.args.path;
  if (typeof path !== "string") return { commands: [], targets: [] };
  const op = call.tool === "delete" ? "delete" : call.tool === "write" || call.tool === "edit" ? "write" : "read";
  const t = await resolveTarget(path, env);
  return { commands: [], targets: [{ op, path: t.absolute, real: t.real, exists: t.exists }] };
}

/** Explain one call. `world`: a task id (as before), or a world choice; nothing = an empty world. */
export async function explainCall(gateName: string, world: string | WorldChoice | undefined, call: ProposedCall): Promise<Explanation> {
  const gate = loadGateForFlag(gateName, "--gate");
  const open = await openWorld(typeof world === "string" ? { task: world } : (world ?? {}));
  try {
    const g = await gateOnWorld(gate, open.world.env);
    const d = await decideCall(g, call, open.world.env);
    const questions = [...g.setupQuestions, ...d.questions];
    const { commands, targets } = await targetsOf(call, open.world.env);
    const worldInfo = open.source.kind === "empty" ? { ...open.source, note: EMPTY_WORLD_NOTE } : open.source;
    const base = { commands, targets, layers: d.layers, questions, world: worldInfo };
    if (d.decision === "deny") return { decision: "deny", reason: d.reason, ...(d.code ? { code: d.code } : {}), ...(d.gate ? { gate: d.gate } : {}), ...base };
    if (questions.length > 0) {
      return {
        decision: "confirm",
        reason: questions.map((q) => `${q.title}: ${q.description}${q.resources.length ? ` [${q.resources.join(", ")}]` : ""}`).join("\n"),
        ...base,
      };
    }
    return { decision: "allow", reason: d.reason, ...base };
  } finally {
    await open.close();
  }
}

function worldChoice(a: {
  task?: string | undefined;
  "tasks-dir"?: readonly string[] | undefined;
  "world-dir"?: string | undefined;
  world?: string | undefined;
}): WorldChoice {
  return { task: a.task, tasksDirs: a["tasks-dir"], worldDir: a["world-dir"], worldFile: a.world };
}

async function corpusMode(a: { gate: string; corpus: string; json?: boolean | undefined } & Parameters<typeof worldChoice>[0]): Promise<number> {
  if (a.task !== undefined) throw new InputError("command line", "--task", "no --task with --corpus (give each entry its `task:`)");
  const gates = a.gate
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((n) => loadGateForFlag(n, "--gate"));
  const entries = readCorpus(a.corpus);
  const report = await runCorpus(gates, entries, worldChoice(a));
  if (a.json) sayJson("stdout", { corpus: a.corpus, ...report });
  else sayOut(`${formatCorpusReport(report, a.corpus)}\n`);
  return 0;
}

function describeWorld(w: Explanation["world"]): string {
  if (w.kind === "empty") return `empty — ${w.note}`;
  if (w.kind === "task") return `task ${w.task}`;
  if (w.kind === "dir") return `copy of ${w.dir}`;
  return `files of ${w.file}`;
}

export async function explainMain(argv: string[]): Promise<number> {
  const { values: a } = parseCli(argv, OPTIONS);
  if (a.help) {
    sayOut(explainHelp());
    return 0;
  }
  if (!a.gate) throw new InputError("command line", "--gate", "a gate configuration name, e.g. --gate layered");
  if (a["tasks-dir"] !== undefined && a.task === undefined && a.corpus === undefined)
    throw new InputError("command line", "--tasks-dir", "--task <id> (or --corpus) to pick a task from it");
  // Before any world: explaining needs a sandbox, which could not start without reaching what it binds.
  checkSandboxAccess();
  if (a.corpus !== undefined) {
    if (a.bash !== undefined || a.tool !== undefined)
      throw new InputError("command line", "--corpus", "either --corpus or one call (--bash / --tool), not both");
    return corpusMode({ ...a, gate: a.gate, corpus: a.corpus });
  }
  if (a.gate.includes(",")) throw new InputError("command line", "--gate", "one gate configuration for a single call (several only with --corpus)");
  const call = parseCall(a);
  const e = await explainCall(a.gate, worldChoice(a), call);
  if (a.json) {
    const out = {
      decision: e.decision,
      reason: e.reason,
      // Each word redacted knowing the others: `-pPW` is a password after mysql, a flag after find.
      commands: e.commands.map((c) => ({ ...c, argv: redactArgv(c.argv) })),
      targets: e.targets,
      ...(e.code ? { code: e.code } : {}),
      layers: e.layers,
      world: e.world,
    };
    sayJson("stdout", out);
    return 0;
  }
  const lines = [
    `decision: ${e.decision.toUpperCase()}${e.code ? ` (${e.code}${e.gate ? ` by ${e.gate}` : ""})` : ""}`,
    `reason:   ${e.reason.split("\n").join("\n          ")}`,
  ];
  lines.push(`world:    ${describeWorld(e.world)}`);
  if (e.layers.length) lines.push("layers:", ...e.layers.map((l) => `  ${l.gate}: ${l.decision}${l.reason ? ` — ${l.reason.split("\n")[0]}` : ""}`));
  if (e.commands.length)
    lines.push(
      "commands:",
      ...e.commands.map(
        (c) =>
          `  ${"  ".repeat(c.depth)}${redactArgv(c.argv)
            .map((w) => (/\s/.test(w) ? JSON.stringify(w) : w))
            .join(" ")}`,
      ),
    );
  if (e.targets.length) {
    const shown = e.targets.map(
      (t) =>
        `  ${t.op.padEnd(7)} ${t.path}${t.real && t.real !== t.path ? ` -> ${t.real}` : ""}${t.exists === false ? " (new)" : ""}${t.why ? `  (${t.why})` : ""}`,
    );
    lines.push("targets:", ...shown);
  }
  sayOut(`${lines.join("\n")}\n`);
  return 0;
}

runIfMain(import.meta.url, () => explainMain(process.argv.slice(2)));
