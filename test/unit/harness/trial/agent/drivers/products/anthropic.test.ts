import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MessagesRequestSchema,
  parseReplyEvents,
  replyEvents,
  replyJson,
  toolNamesOf,
  toolResultsOf,
  userTextsOf,
  type ReplyBlock,
} from "../../../../../../../harness/trial/agent/drivers/products/anthropic.ts";
import { FIRST_REQUEST, RAN_REQUEST, REFUSED_REQUEST } from "../../../../../../support/claude-code-requests.ts";

describe("Messages requests as Claude Code sends them", () => {
  it("reads the recorded shapes: tools offered, the instruction, no result before the first call", () => {
    const req = MessagesRequestSchema.parse(FIRST_REQUEST);
    expect(toolNamesOf(req)).toEqual(["Agent", "Bash", "Edit", "Read", "Write"]);
    expect(userTextsOf(req)).toContain("clean up");
    expect(toolResultsOf(req)).toEqual([]);
  });

  it("reads the tool result of the last user message, refused or ran, past interleaved system messages", () => {
    expect(toolResultsOf(MessagesRequestSchema.parse(REFUSED_REQUEST))).toEqual([
      { toolUseId: "toolu_0", isError: true, text: expect.stringContaining("needs approval") },
    ]);
    expect(toolResultsOf(MessagesRequestSchema.parse(RAN_REQUEST))).toEqual([{ toolUseId: "toolu_2", isError: false, text: "a.txt\nd" }]);
  });

  it("joins a result given as content parts, naming parts that are not text", () => {
    const req = MessagesRequestSchema.parse({
      model: "m",
      messages: [
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "t1",
              content: [
                { type: "text", text: "one" },
                { type: "image", source: {} },
                { type: "text", text: "two" },
              ],
            },
          ],
        },
      ],
    });
    expect(toolResultsOf(req)).toEqual([{ toolUseId: "t1", isError: false, text: "one\n[image]\ntwo" }]);
  });

  it("rejects a body that is not a Messages request", () => {
    expect(MessagesRequestSchema.safeParse({ messages: [] }).success).toBe(false);
    expect(MessagesRequestSchema.safeParse({ model: "m", messages: "hi" }).success).toBe(false);
  });
});

const block: fc.Arbitrary<ReplyBlock> = fc.oneof(
  fc.record({ type: fc.constant("text" as const), text: fc.string() }),
  fc.record({
    type: fc.constant("tool_use" as const),
    id: fc.stringMatching(/^toolu_[a-z0-9]{1,8}$/),
    name: fc.constantFrom("Bash", "Read", "Write", "Edit"),
    input: fc.dictionary(fc.stringMatching(/^[a-z_]{1,10}$/), fc.oneof(fc.string(), fc.integer(), fc.boolean())),
  }),
);

describe("the streamed answer (server-sent events)", () => {
  it("carries every block back as sent, whatever its text (newlines, event-like lines, unicode)", () => {
    fc.assert(
      fc.property(fc.array(block, { maxLength: 4 }), (content) => {
        const sse = replyEvents({ id: "msg_1", model: "m", content, usage: { input_tokens: 3, output_tokens: 4 } });
        const back = parseReplyEvents(sse);
        expect(back.blocks).toEqual(content);
        expect(back.stopReason).toBe(content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn");
      }),
    );
  });

  it("frames events as the API does: message_start first, message_stop last, one data line each", () => {
    const sse = replyEvents({
      id: "msg_1",
      model: "m",
      content: [
        { type: "text", text: "a\n\nevent: message_stop\n" },
        { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } },
      ],
      usage: { input_tokens: 1, output_tokens: 2 },
    });
    const events = sse.split("\n\n").filter(Boolean);
    expect(events[0]).toMatch(/^event: message_start\ndata: /);
    expect(events.at(-1)).toBe('event: message_stop\ndata: {"type":"message_stop"}');
    for (const e of events) expect(e.split("\n")).toHaveLength(2);
    expect(events.map((e) => e.split("\n")[0])).toEqual([
      "event: message_start",
      "event: content_block_start",
      "event: content_block_delta",
      "event: content_block_stop",
      "event: content_block_start",
      "event: content_block_delta",
      "event: content_block_stop",
      "event: message_delta",
      "event: message_stop",
    ]);
  });

  it("a stream cut before message_stop is not a reply", () => {
    const sse = replyEvents({ id: "m", model: "m", content: [{ type: "text", text: "x" }], usage: { input_tokens: 1, output_tokens: 1 } });
    expect(() => parseReplyEvents(sse.slice(0, sse.indexOf("event: message_stop")))).toThrow(/message_stop/);
  });

  it("the JSON answer (stream: false) has the same content and stop reason", () => {
    const content: ReplyBlock[] = [{ type: "tool_use", id: "toolu_1", name: "Read", input: { file_path: "/workspace/a" } }];
    expect(replyJson({ id: "m", model: "x", content, usage: { input_tokens: 1, output_tokens: 1 } })).toMatchObject({
      type: "message",
      role: "assistant",
      content,
      stop_reason: "tool_use",
    });
  });
});
