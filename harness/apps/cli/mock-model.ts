/**
 * npm run mock-model -- [--port N] [--host 127.0.0.1]
 *
 * Starts a local OpenAI-compatible server whose models are a few documented behaviours
 * (harness/apps/mock-model/behaviours.ts), and prints the GATEBENCH_BASE_URL to export: the
 * whole real-model path (preflight, eval with --agents openai-compatible/mock/<behaviour>,
 * --record, --replay) on a machine with no model and no network. Runs until Ctrl-C.
 */
import { InputError } from "../../../kernel/errors.ts";
import { MOCK_BEHAVIOURS, MOCK_PREFIX, mockModels, mockResponder } from "../mock-model/behaviours.ts";
import { startFakeOpenAIServer } from "../mock-model/server.ts";
import { intFlag, parseCli, runIfMain } from "./main.ts";
import { sayOut } from "../../text/redact/terminal.ts";

const OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** The port the mock listens on unless --port says otherwise. */
export const DEFAULT_MOCK_PORT = 8642;

/** mock-model's whole help. */
export function mockModelHelp(): string {
  const width = Math.max(...MOCK_BEHAVIOURS.map((b) => b.name.length)) + MOCK_PREFIX.length;
  return `usage: gatebench mock-model [--port N] [--host 127.0.0.1]
       npm run mock-model -- [--port N] [--host 127.0.0.1]   (in a gatebench checkout)

Starts a local OpenAI-compatible model server (default http://127.0.0.1:${DEFAULT_MOCK_PORT}/v1; --port 0 picks a free
port) and prints the GATEBENCH_BASE_URL to export. Its models, selected per request by name
(--agents openai-compatible/<model>):
${MOCK_BEHAVIOURS.map((b) => `  ${(MOCK_PREFIX + b.name).padEnd(width)}  ${b.summary}`).join("\n")}
Each plays any cleanup task (the folder and patterns come from the task's instruction) and
reports usage; it has no price, so its cost is "unknown". Runs until Ctrl-C.
  -h, --help   this text`;
}

function usageLines(baseUrl: string): string {
  const first = `openai-compatible/${mockModels()[0]}`;
  return [
    `mock model server listening on ${baseUrl}`,
    "",
    "In another shell:",
    `  export GATEBENCH_BASE_URL=${baseUrl}`,
    `  npm run eval -- --agents ${first} --tasks t7_cleanup_tmp --gates none,pi-permission-gate,layered --approvers headless --epochs 2`,
    "",
    "Models:",
    ...MOCK_BEHAVIOURS.map((b) => `  openai-compatible/${MOCK_PREFIX}${b.name}: ${b.summary}`),
    "",
    "Ctrl-C stops it.",
    "",
  ].join("\n");
}

export async function main(argv: string[] = process.argv.slice(2)): Promise<number> {
  const { values: a } = parseCli(argv, OPTIONS);
  if (a.help) {
    sayOut(`${mockModelHelp()}\n`);
    return 0;
  }
  const port = intFlag(a.port, "--port", DEFAULT_MOCK_PORT, 0);
  if (port > 65535) throw new InputError("command line", "--port", `a port between 0 and 65535 (got ${port})`);
  let server: Awaited<ReturnType<typeof startFakeOpenAIServer>>;
  try {
    server = await startFakeOpenAIServer(mockResponder(), { models: mockModels(), port, host: a.host ?? "127.0.0.1" });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError("command line", "--port", `a free port on ${a.host ?? "127.0.0.1"} (${code ?? (e as Error).message}); --port 0 picks one`);
  }
  sayOut(usageLines(server.baseUrl));
  // Serves until the process is stopped (run()'s signal handlers exit with 130).
  await new Promise<never>(() => undefined);
  return 0;
}

runIfMain(import.meta.url, () => main());
