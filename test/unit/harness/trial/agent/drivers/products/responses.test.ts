import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  callOutputsOf,
  offeredTools,
  parseResponseEvents,
  RESPONSES_PROTOCOL,
  ResponsesRequestSchema,
  responseEvents,
  userTextsOf,
} from "../../../../../../../harness/trial/agent/drivers/products/responses.ts";

/** Requests Codex 0.171.0 sent to a scripted endpoint (long texts cut), one per turn. */
const RECORDED = JSON.parse(readFileSync(new URL("../../../../../../fixtures/codex/requests.json", import.meta.url), "utf8")) as {
  path: string;
  body: unknown;
}[];
const request = (i: number) => ResponsesRequestSchema.parse(RECORDED[i]!.body);

describe("the Responses API requests Codex sends", () => {
  it("are read: the path, the instruction, the tools offered (apply_patch as a custom tool)", () => {
    expect(RECORDED.every((r) => r.path === "/v1/responses")).toBe(true);
    expect(userTextsOf(request(0)).at(-1)).toBe("Do the thing.");
    const tools = offeredTools(request(0));
    expect(tools.get("exec_command")).toBe("function");
    expect(tools.get("apply_patch")).toBe("custom");
    expect(callOutputsOf(request(0))).toEqual([]);
  });

  it("carry each call's output by its call id: a command's exit code, a patch's success, a refusal", () => {
    const outs = callOutputsOf(request(3));
    expect(outs.map((o) => o.toolUseId)).toEqual(["call_1", "call_2", "call_3"]);
    expect(outs[0]!.text).toMatch(/^Process exited with code 0$/m);
    expect(outs[1]!.text).toMatch(/Success\. Updated the following files:/);
    expect(outs[2]!.text).toMatch(/rm -f style commands are not permitted/);
  });
});

describe("the streamed answer", () => {
  const reply = {
    id: "r1",
    model: "m",
    content: [
      { type: "text" as const, text: "Cleaning up." },
      { type: "tool_use" as const, id: "call_gb001", name: "exec_command", input: { cmd: "rm -r build" } },
    ],
    usage: { input_tokens: 10, output_tokens: 3 },
  };

  it("is well-framed events whose items are a message and a function call with JSON arguments", () => {
    const { items, usage } = parseResponseEvents(responseEvents(reply, new Set()));
    expect(items[0]).toMatchObject({ type: "message", role: "assistant", content: [{ type: "output_text", text: "Cleaning up." }] });
    expect(items[1]).toMatchObject({ type: "function_call", call_id: "call_gb001", name: "exec_command" });
    expect(JSON.parse(items[1]!.arguments)).toEqual({ cmd: "rm -r build" });
    expect(usage).toMatchObject({ input_tokens: 10, output_tokens: 3, total_tokens: 13 });
  });

  it("makes a call of a tool offered as custom a custom_tool_call with the raw input", () => {
    const patchReply = {
      ...reply,
      content: [{ type: "tool_use" as const, id: "c2", name: "apply_patch", input: { input: "*** Begin Patch\n*** End Patch\n" } }],
    };
    const { items } = parseResponseEvents(responseEvents(patchReply, new Set(["apply_patch"])));
    expect(items).toEqual([expect.objectContaining({ type: "custom_tool_call", call_id: "c2", input: "*** Begin Patch\n*** End Patch\n" })]);
  });

  it("a stream cut before response.completed, or an event before response.created, is not well formed", () => {
    const sse = responseEvents(reply, new Set());
    expect(() => parseResponseEvents(sse.slice(0, sse.lastIndexOf("event: response.completed")))).toThrow(/without response.completed/);
    expect(() => parseResponseEvents(sse.slice(sse.indexOf("event: response.output_item.added")))).toThrow(/before response.created/);
  });

  it("the protocol answers a recorded request in the stream and a non-stream request in one JSON body", () => {
    const read = RESPONSES_PROTOCOL.read(RECORDED[0]!.body)!;
    expect(read.model).toBe("gatebench-scripted");
    const streamed = read.reply({ id: "x", content: reply.content, usage: reply.usage });
    expect(streamed.contentType).toBe("text/event-stream");
    const plain = RESPONSES_PROTOCOL.read({ ...(RECORDED[0]!.body as object), stream: false })!.reply({ id: "x", content: reply.content, usage: reply.usage });
    expect(JSON.parse(plain.body).output).toHaveLength(2);
    expect(RESPONSES_PROTOCOL.read({ messages: [] })).toBeUndefined();
  });
});
