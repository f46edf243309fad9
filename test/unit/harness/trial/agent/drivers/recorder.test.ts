import type { StreamFn } from "@mariozechner/pi-agent-core";
import { type AssistantMessage, type Context, createAssistantMessageEventStream, type Message } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { recordDriver } from "../../../../../../harness/trial/agent/drivers/recorder.ts";
import { createScriptedDriver, SCRIPTED_MODEL } from "../../../../../../harness/trial/agent/drivers/scripted.ts";
import type { Driver } from "../../../../../../harness/trial/agent/drivers/types.ts";
import { answer, assistant, blocked, call, ok, TOOLS } from "../../../../../support/conversation.ts";

const user: Message = { role: "user", content: "clean up", timestamp: 0 };

/** One turn as the agent loop takes it: ask the driver, read the reply off its stream. */
async function turn(driver: Driver, messages: Message[]): Promise<AssistantMessage> {
  const context: Context = { systemPrompt: "s", messages, tools: TOOLS };
  const stream = await driver.streamFn(SCRIPTED_MODEL, context, {});
  return stream.result();
}

describe("recordDriver", () => {
  it("passes every turn through unchanged and reads the calls, their outcomes and the final answer", async () => {
    const inner = createScriptedDriver("inner", [
      { say: "Clearing.", tool: "bash", args: { command: "rm -rf /tmp/*" }, on_block: [{ tool: "bash", args: { command: "find /tmp -delete" } }] },
      { say: "Done." },
    ]);
    const { driver, recorder } = recordDriver(inner);
    expect(driver.meter).toBe(inner.meter);
    expect(driver.model).toBe(inner.model);

    const r1 = await turn(driver, [user]);
    expect(r1.content).toEqual([{ type: "text", text: "Clearing." }, expect.objectContaining({ type: "toolCall", arguments: { command: "rm -rf /tmp/*" } })]);
    // Before the next turn the recorder knows the call, not yet how it ended.
    expect(recorder.trajectory().calls.map((c) => c.outcome)).toEqual(["unknown"]);

    const id1 = (r1.content[1] as { id: string }).id;
    const r2 = await turn(driver, [user, r1, blocked(id1)]);
    const id2 = (r2.content[0] as { id: string }).id;
    const r3 = await turn(driver, [user, r1, blocked(id1), r2, ok(id2)]);
    expect(r3.content).toEqual([{ type: "text", text: "Done." }]);

    expect(recorder.trajectory()).toEqual({
      calls: [
        { id: id1, say: "Clearing.", tool: "bash", args: { command: "rm -rf /tmp/*" }, outcome: "blocked" },
        { id: id2, tool: "bash", args: { command: "find /tmp -delete" }, outcome: "ok" },
      ],
      finalSay: "Done.",
      unreplayable: [],
    });
  });

  it("a reply that arrives after the next turn started does not overwrite it", async () => {
    let release!: () => void;
    const late = new Promise<void>((r) => (release = r));
    let n = 0;
    const streamFn: StreamFn = () => {
      const stream = createAssistantMessageEventStream();
      const reply = n++ === 0 ? assistant([call("c1", "bash", { command: "ls" })]) : answer("second");
      void (n === 1 ? late : Promise.resolve()).then(() => stream.end(reply));
      return stream;
    };
    const { driver, recorder } = recordDriver({ ...createScriptedDriver("x", []), streamFn });
    const first = driver.streamFn(SCRIPTED_MODEL, { messages: [user], tools: TOOLS }, {});
    await turn(driver, [user]);
    release();
    await (await first).result();
    expect(recorder.trajectory()).toEqual({ calls: [], finalSay: "second", unreplayable: [] });
  });
});
