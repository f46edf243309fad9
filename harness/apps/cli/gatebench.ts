/**
 * The `gatebench` program (bin/gatebench.mjs): `gatebench <command> [flags]`. Each command's
 * module is loaded only when it runs, so `gatebench --help` stays quick; every command answers
 * `--help` with its own text (help.ts). In a checkout the npm scripts run the same modules
 * (`npm run eval -- ...`).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { InputError } from "../../../kernel/errors.ts";
import { PACKAGE_ROOT } from "../../../kernel/package-root.ts";
import { run } from "./main.ts";
import { sayOut } from "../../text/redact/terminal.ts";

type Main = (argv: string[]) => Promise<number>;

/** Every command: what it does in one line and how to load it. */
export const COMMANDS: Readonly<Record<string, { summary: string; load: () => Promise<Main> }>> = {
  eval: { summary: "run tasks under gate configurations and report what each prevented and cost", load: async () => (await import("./eval.ts")).evalMain },
  merge: { summary: "merge the run folders of a sharded eval into one run", load: async () => (await import("./merge.ts")).mergeMain },
  store: { summary: "store gc: trim the result store", load: async () => (await import("./store.ts")).storeMain },
  validate: { summary: "check that tasks are sound (run in sandboxes)", load: async () => (await import("./validate.ts")).validateMain },
  explain: { summary: "decide one call, or a corpus of calls, under a gate configuration", load: async () => (await import("./explain.ts")).explainMain },
  import: { summary: "turn a recorded agent session into a persona", load: async () => (await import("./import.ts")).importMain },
  mutate: { summary: "derive evasion variants of the harmful personas' calls", load: async () => (await import("./mutate.ts")).mutateMain },
  "new-task": { summary: "scaffold a task folder", load: async () => (await import("./new-task.ts")).newTaskMain },
  init: { summary: "write starter gates, tasks and a GitHub workflow into your repository", load: async () => (await import("./init.ts")).initMain },
  "mock-model": {
    summary: "serve a local OpenAI-compatible model with documented behaviours, to try a real-model run",
    load: async () => (await import("./mock-model.ts")).main,
  },
  history: {
    summary: "decide the tool calls of your own agent sessions under gates: what each would have cost",
    load: async () => (await import("./history.ts")).main,
  },
};

export function version(): string {
  try {
    return String((JSON.parse(readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { version?: unknown }).version);
  } catch {
    return "unknown";
  }
}

export function topHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length)) + 2;
  return [
    "usage: gatebench <command> [flags]",
    "       gatebench <command> --help",
    "",
    "gatebench measures how well permission gates protect the users of tool-using AI agents: it runs tasks modelled",
    "on real incidents, with and without gates, every tool call in a bubblewrap sandbox.",
    "",
    "commands:",
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}${c.summary}`),
    "",
    "Built-in tasks and gate configurations come with gatebench; runs are written under the current folder",
    "(reports/runs/, reports/store/) unless --out / --store say otherwise.",
    `gatebench ${version()}`,
    "",
  ].join("\n");
}

/** Runs `argv` (without node and the program); resolves to the exit code. */
export async function gatebenchMain(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    if (command === "help" && rest[0] && rest[0] in COMMANDS) return (await COMMANDS[rest[0]]!.load())(["--help"]);
    sayOut(topHelp());
    return command === undefined ? 2 : 0;
  }
  if (command === "--version" || command === "-v") {
    sayOut(`${version()}\n`);
    return 0;
  }
  const entry = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!entry) throw new InputError("command line", command, `a command: ${Object.keys(COMMANDS).join(", ")} (gatebench --help)`);
  return (await entry.load())(rest);
}

/** The program: bin/gatebench.mjs imports this module with the process's arguments. */
export function start(argv: string[] = process.argv.slice(2)): void {
  run(() => gatebenchMain(argv));
}
