/**
 * Watches a driver's turns without changing them: every time the agent loop asks for a reply,
 * the request carries the whole conversation so far (each tool call with its result) and the
 * trial's tools; the reply is read once its stream ends. The trajectory is read from the last
 * conversation plus the last reply.
 */
import type { StreamFn } from "@mariozechner/pi-agent-core";
import type { AssistantMessage, AssistantMessageEventStream, Message } from "@mariozechner/pi-ai";
import { trajectoryOf, type LoopTool, type Trajectory } from "./trajectory.ts";
import type { Driver } from "./types.ts";

export interface TurnRecorder {
  /** What the agent did so far: its calls, how each ended, its final answer. */
  trajectory(): Trajectory;
}

export function recordDriver(driver: Driver): { driver: Driver; recorder: TurnRecorder } {
  let messages: readonly Message[] = [];
  let tools: readonly LoopTool[] = [];
  let reply: AssistantMessage | undefined;
  const streamFn: StreamFn = (model, context, options) => {
    const turn = context.messages;
    messages = turn;
    tools = context.tools ?? [];
    reply = undefined;
    const stream = driver.streamFn(model, context, options);
    // Registered before the agent loop awaits the same stream, so the reply is known as soon as the loop has it.
    const watch = (s: AssistantMessageEventStream) =>
      s.result().then(
        (m) => {
          if (messages === turn) reply = m;
        },
        () => undefined,
      );
    if (stream instanceof Promise) void stream.then(watch, () => undefined);
    else void watch(stream);
    return stream;
  };
  return {
    driver: { ...driver, streamFn },
    recorder: { trajectory: () => trajectoryOf(reply && !messages.includes(reply) ? [...messages, reply] : messages, tools) },
  };
}
