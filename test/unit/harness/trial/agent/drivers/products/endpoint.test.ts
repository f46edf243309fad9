import http from "node:http";
import { describe, expect, it } from "vitest";
import { parseReplyEvents } from "../../../../../../../harness/trial/agent/drivers/products/anthropic.ts";
import { ModelEndpoint } from "../../../../../../../harness/trial/agent/drivers/products/endpoint.ts";
import { ScriptedPlayer, type EndedCall } from "../../../../../../../harness/trial/agent/drivers/products/player.ts";
import { FIRST_REQUEST } from "../../../../../../support/claude-code-requests.ts";

function post(socket: string, path: string, body: unknown): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath: socket, path, method: "POST", headers: { "content-type": "application/json" } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"]), text }));
    });
    req.on("error", reject);
    req.end(typeof body === "string" ? body : JSON.stringify(body));
  });
}

const afterCall = (id: string, isError: boolean, text: string) => ({
  ...FIRST_REQUEST,
  messages: [
    ...FIRST_REQUEST.messages,
    { role: "assistant", content: [{ type: "tool_use", id, name: "Bash", input: {} }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: id, is_error: isError, content: text }] },
  ],
});

describe("the harness's Messages endpoint on a unix socket", () => {
  it("streams the script's calls, hands each ended call to the harness before answering, and counts tokens", async () => {
    const ended: EndedCall[] = [];
    const player = new ScriptedPlayer([{ tool: "bash", args: { command: "rm -rf build" }, on_block: [{ say: "Refused; stopping." }] }, { say: "Done." }]);
    const e = await ModelEndpoint.start({ player, onCallEnded: async (c) => void ended.push(c) });
    try {
      const first = await post(e.socket, "/v1/messages?beta=true", FIRST_REQUEST);
      expect(first.status).toBe(200);
      expect(first.type).toBe("text/event-stream");
      const call = parseReplyEvents(first.text).blocks.find((b) => b.type === "tool_use")!;
      expect(call).toMatchObject({ name: "Bash", input: { command: "rm -rf build" } });
      const second = await post(e.socket, "/v1/messages", afterCall((call as { id: string }).id, true, "rm in '/workspace/build' needs approval."));
      expect(parseReplyEvents(second.text)).toEqual({ blocks: [{ type: "text", text: "Refused; stopping." }], stopReason: "end_turn" });
      expect(ended.map((c) => c.outcome)).toEqual(["blocked"]);
      expect(e.stats.turns).toBe(2);
      expect(e.meter.tally.input).toBeGreaterThan(0);
      expect(e.meter.tally.output).toBeGreaterThan(0);
    } finally {
      await e.close();
    }
  });

  it("answers anything but POST /v1/messages with 404 and a body that is not a request with 400", async () => {
    const e = await ModelEndpoint.start({ player: new ScriptedPlayer([{ say: "x" }]), onCallEnded: async () => {} });
    try {
      expect((await post(e.socket, "/v1/messages/count_tokens", FIRST_REQUEST)).status).toBe(404);
      expect(e.stats.other).toEqual(["POST /v1/messages/count_tokens"]);
      expect((await post(e.socket, "/v1/messages", "{not json")).status).toBe(400);
      expect(e.stats.errors).toHaveLength(1);
    } finally {
      await e.close();
    }
  });

  it("when measuring a call fails, answers 500, then refuses every later request without the product retrying", async () => {
    const player = new ScriptedPlayer([
      { tool: "bash", args: { command: "ls" } },
      { tool: "bash", args: { command: "pwd" } },
    ]);
    const e = await ModelEndpoint.start({
      player,
      onCallEnded: async () => {
        throw new Error("snapshot failed");
      },
    });
    try {
      const first = await post(e.socket, "/v1/messages", FIRST_REQUEST);
      const id = (parseReplyEvents(first.text).blocks[0] as { id: string }).id;
      const failed = await post(e.socket, "/v1/messages", afterCall(id, false, "a"));
      expect(failed.status).toBe(500);
      expect(e.stats.errors[0]).toMatch(/snapshot failed/);
      const later = await post(e.socket, "/v1/messages", afterCall(id, false, "a"));
      expect(later.status).toBe(400);
      expect(JSON.parse(later.text)).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    } finally {
      await e.close();
    }
  });
});
