/**
 * Our emitToolCall against Pi's own ExtensionRunner.emitToolCall (the installed 0.73.1 build):
 * random stacks of handlers that return nothing, a non-blocking result, a block, throw, or
 * mutate the input must give the same result, the same thrown error, the same handler trace and
 * the same final input in both.
 */
import fc from "fast-check";
import { ExtensionRunner, createExtensionRuntime } from "@mariozechner/pi-coding-agent";
import { describe, expect, it } from "vitest";
import type { Handler, RegisteredExtension } from "../../../../gates/pi-extension/extension-api.ts";
import { emitToolCall, type ToolCallEvent } from "../../../../gates/pi-extension/emit-tool-call.ts";

type Behaviour = "none" | "nonblock" | "block" | "blockNoReason" | "throw" | "mutate" | "asyncBlock";

function build(stacks: Behaviour[][], trace: string[]): RegisteredExtension[] {
  return stacks.map((stack, e) => {
    const handlers: Handler[] = stack.map((b, h) => async (event) => {
      const id = `${e}.${h}`;
      trace.push(id);
      const input = (event as ToolCallEvent).input;
      switch (b) {
        case "none":
          return undefined;
        case "nonblock":
          return { block: false, reason: `nb ${id}` };
        case "block":
          return { block: true, reason: `b ${id}` };
        case "blockNoReason":
          return { block: true };
        case "throw":
          throw new Error(`t ${id}`);
        case "mutate":
          input.command = `${String(input.command)};${id}`;
          return undefined;
        case "asyncBlock":
          await new Promise((r) => setTimeout(r, 0));
          return { block: true, reason: `ab ${id}` };
      }
    });
    return {
      path: `/ext/${e}.ts`,
      handlers: new Map([["tool_call", handlers]]),
      registered: { tools: [], commands: [], shortcuts: [], flags: [], providers: [] },
    };
  });
}

async function run(f: () => Promise<unknown>): Promise<{ value?: unknown; error?: string }> {
  try {
    return { value: await f() };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

const behaviour = fc.constantFrom<Behaviour>("none", "nonblock", "block", "blockNoReason", "throw", "mutate", "asyncBlock");

describe("emitToolCall matches Pi's ExtensionRunner", () => {
  it("on random handler stacks", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(behaviour, { maxLength: 4 }), { maxLength: 4 }), async (stacks) => {
        const piTrace: string[] = [];
        const ourTrace: string[] = [];
        const piEvent: ToolCallEvent = { type: "tool_call", toolName: "bash", toolCallId: "c", input: { command: "ls" } };
        const ourEvent: ToolCallEvent = structuredClone(piEvent);
        // Pi's runner only reads `handlers` and `path` of each extension on this path.
        const runner = new ExtensionRunner(build(stacks, piTrace) as never, createExtensionRuntime(), "/workspace", undefined as never, undefined as never);
        const pi = await run(() => runner.emitToolCall(piEvent as never));
        const ours = await run(async () => (await emitToolCall(build(stacks, ourTrace), ourEvent, {})).result);
        expect(ours).toEqual(pi);
        expect(ourTrace).toEqual(piTrace);
        expect(ourEvent.input).toEqual(piEvent.input);
      }),
      { numRuns: 300 },
    );
  });
});
