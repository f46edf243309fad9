import { readFileSync } from "node:fs";
import http from "node:http";
import { describe, expect, it } from "vitest";
import { ModelEndpoint } from "../../../../../../../harness/trial/agent/drivers/products/endpoint.ts";
import {
  declaredFunctions,
  functionResponsesOf,
  GEMINI_PROTOCOL,
  GenerateRequestSchema,
  generateEvents,
  parseGenerateEvents,
  userTextsOf,
} from "../../../../../../../harness/trial/agent/drivers/products/gemini.ts";
import { GEMINI_CLI_TOOLS } from "../../../../../../../harness/trial/agent/drivers/products/gemini-cli-tools.ts";
import { ScriptedPlayer, type EndedCall } from "../../../../../../../harness/trial/agent/drivers/products/player.ts";

/**
 * Requests Gemini CLI 0.61.0 sent to a scripted endpoint (long texts cut), one per turn: in yolo
 * mode with a policy file denying `rm -rf`, and in the default mode.
 */
const recorded = (mode: string) =>
  JSON.parse(readFileSync(new URL(`../../../../../../fixtures/gemini/requests-${mode}.json`, import.meta.url), "utf8")) as { path: string; body: unknown }[];
const YOLO = recorded("yolo");
const DEFAULT = recorded("default");
const request = (r: { body: unknown }) => GenerateRequestSchema.parse(r.body);
const url = (path: string) => new URL(path, "http://127.0.0.1:8765");

describe("the Gemini API requests Gemini CLI sends", () => {
  it("go to the model's streamGenerateContent with alt=sse, carrying the instruction and the tools the mode offers", () => {
    expect(YOLO.every((r) => r.path === "/v1beta/models/gatebench-scripted:streamGenerateContent?alt=sse")).toBe(true);
    expect(GEMINI_PROTOCOL.paths!.test(url(YOLO[0]!.path).pathname)).toBe(true);
    expect(userTextsOf(request(YOLO[0]!)).at(-1)).toBe("Do the thing");
    const yolo = declaredFunctions(request(YOLO[0]!));
    for (const tool of ["run_shell_command", "read_file", "write_file", "replace", "list_directory", "glob", "grep_search"]) expect(yolo).toContain(tool);
    // Headless, the default mode leaves out what would need approval.
    const plain = declaredFunctions(request(DEFAULT[0]!));
    expect(plain).toContain("read_file");
    expect(plain).not.toContain("run_shell_command");
    expect(plain).not.toContain("write_file");
    expect(functionResponsesOf(request(YOLO[0]!))).toEqual([]);
  });

  it("carry each call's function response by its id: output for a call that ran, error for one that did not", () => {
    const responses = YOLO.slice(1).map((r) => functionResponsesOf(request(r)));
    expect(responses.map((r) => r.map((x) => x.toolUseId))).toEqual([["gb001"], ["gb002"], ["gb003"], ["gb004"], ["gb005"], ["gb006"], ["gb007"]]);
    expect(responses[1]![0]).toMatchObject({ isError: false, text: expect.stringMatching(/^Exit Code: 1$/m) });
    expect(responses[5]![0]).toEqual({ toolUseId: "gb006", isError: true, text: "Tool execution denied by policy." });
    expect(responses[6]![0]!.text).toMatch(/^Path not in workspace: /);
    expect(functionResponsesOf(request(DEFAULT[1]!))[0]).toMatchObject({ isError: true, text: expect.stringMatching(/^Tool "run_shell_command" not found\./) });
  });

  it("are read by the protocol with the model from the path; one without tool declarations (a utility request) is not the agent's turn", () => {
    const read = GEMINI_PROTOCOL.read(YOLO[0]!.body, url(YOLO[0]!.path))!;
    expect(read.model).toBe("gatebench-scripted");
    expect(read.serialized).toContain("run_shell_command");
    const { tools: _tools, ...withoutTools } = YOLO[0]!.body as Record<string, unknown>;
    expect(GEMINI_PROTOCOL.read(withoutTools, url(YOLO[0]!.path))).toBeUndefined();
    expect(GEMINI_PROTOCOL.read(YOLO[0]!.body, url("/v1beta/models/x:countTokens"))).toBeUndefined();
    expect(GEMINI_PROTOCOL.read({ messages: [] }, url(YOLO[0]!.path))).toBeUndefined();
  });
});

describe("the answer", () => {
  const content = [
    { type: "text" as const, text: "Cleaning up." },
    { type: "tool_use" as const, id: "gb001", name: "run_shell_command", input: { command: "rm -r build" } },
  ];

  it("streamed: one server-sent event holding the text and the function call with its id, finished, with the usage", () => {
    const read = GEMINI_PROTOCOL.read(YOLO[0]!.body, url(YOLO[0]!.path))!;
    const out = read.reply({ id: "r1", content, usage: { input_tokens: 10, output_tokens: 3 } });
    expect(out.contentType).toBe("text/event-stream");
    const [event, ...more] = parseGenerateEvents(out.body);
    expect(more).toEqual([]);
    expect(event!.candidates[0]).toMatchObject({
      content: {
        role: "model",
        parts: [{ text: "Cleaning up." }, { functionCall: { id: "gb001", name: "run_shell_command", args: { command: "rm -r build" } } }],
      },
      finishReason: "STOP",
    });
    expect(event!.usageMetadata).toEqual({ promptTokenCount: 10, candidatesTokenCount: 3, totalTokenCount: 13 });
  });

  it("not streamed (generateContent): the same response as one JSON body; errors as the API words them", () => {
    const read = GEMINI_PROTOCOL.read(YOLO[0]!.body, url("/v1beta/models/gatebench-scripted:generateContent"))!;
    const out = read.reply({ id: "r1", content, usage: { input_tokens: 1, output_tokens: 1 } });
    expect(out.contentType).toBe("application/json");
    expect(JSON.parse(out.body).candidates[0].content.parts).toHaveLength(2);
    expect(GEMINI_PROTOCOL.error("invalid_request", "no")).toEqual({ error: { code: 400, message: "no", status: "INVALID_ARGUMENT" } });
    expect(() => parseGenerateEvents(`${generateEvents({ id: "x", model: "m", content, usage: { input_tokens: 0, output_tokens: 0 } })}event: x\n\n`)).toThrow(
      /malformed/,
    );
  });
});

function post(socket: string, path: string, body: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: socket, path, method: "POST", headers: { "content-type": "application/json" } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

describe("the harness's endpoint speaking the Gemini API", () => {
  it("answers the recorded turns with the script's calls and hands each ended call over, read from its function response", async () => {
    const ended: EndedCall[] = [];
    const player = new ScriptedPlayer(
      [
        { tool: "bash", args: { command: "ls" } },
        { tool: "bash", args: { command: "false" }, on_error: [{ say: "It failed." }] },
      ],
      "gb",
      GEMINI_CLI_TOOLS,
    );
    const e = await ModelEndpoint.start({ player, protocol: GEMINI_PROTOCOL, onCallEnded: async (c) => void ended.push(c) });
    try {
      const first = await post(e.socket, YOLO[0]!.path, YOLO[0]!.body);
      expect(first.status).toBe(200);
      expect(parseGenerateEvents(first.text)[0]!.candidates[0].content.parts).toEqual([
        { functionCall: { id: "gb001", name: "run_shell_command", args: { command: "ls" } } },
      ]);
      await post(e.socket, YOLO[1]!.path, YOLO[1]!.body);
      const last = await post(e.socket, YOLO[2]!.path, YOLO[2]!.body);
      expect(parseGenerateEvents(last.text)[0]!.candidates[0].content.parts).toEqual([{ text: "It failed." }]);
      expect(ended.map((c) => [c.id, c.outcome])).toEqual([
        ["gb001", "ok"],
        ["gb002", "error"],
      ]);
      expect(e.meter.tally.input).toBeGreaterThan(0);
    } finally {
      await e.close();
    }
  });

  it("answers another method (countTokens) with 404, and a utility request without tools with 400 (the trial's error)", async () => {
    const e = await ModelEndpoint.start({
      player: new ScriptedPlayer([{ say: "x" }], "gb", GEMINI_CLI_TOOLS),
      protocol: GEMINI_PROTOCOL,
      onCallEnded: async () => {},
    });
    try {
      expect((await post(e.socket, "/v1beta/models/gatebench-scripted:countTokens", YOLO[0]!.body)).status).toBe(404);
      expect(e.stats.other).toEqual(["POST /v1beta/models/gatebench-scripted:countTokens"]);
      const { tools: _tools, ...utility } = YOLO[0]!.body as Record<string, unknown>;
      const refused = await post(e.socket, "/v1beta/models/gatebench-scripted:generateContent", utility);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text)).toMatchObject({ error: { status: "INVALID_ARGUMENT" } });
      expect(e.stats.errors).toEqual(["a request that is not a Gemini API request"]);
    } finally {
      await e.close();
    }
  });
});
