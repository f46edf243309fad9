/**
 * The pure parts of the prefix cache (harness/trial/states/world-states.ts): what is remembered, under
 * which key, and that a failure is never remembered.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { digestArgs } from "../../../../../harness/trial/agent/gatekeeper.ts";
import { profileKey, remember, stepKey } from "../../../../../harness/trial/states/world-states.ts";
import { agentDeterministic } from "../../../../../harness/trial/agent/drivers/registry.ts";

const strict = { kind: "strict" as const, readOnly: ["/home/user"], hidden: ["/home/user/.ssh"] };

describe("remember", () => {
  it("makes a value once per key, whoever asks", async () => {
    const memo = new Map<string, Promise<number>>();
    let made = 0;
    const make = async () => ++made;
    const [a, b] = await Promise.all([remember(memo, "k", make), remember(memo, "k", make)]);
    expect([a, b, made]).toEqual([1, 1, 1]);
    expect(await remember(memo, "other", make)).toBe(2);
  });

  it("forgets a failure, so the next caller makes the value again", async () => {
    const memo = new Map<string, Promise<number>>();
    await expect(remember(memo, "k", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await Promise.resolve();
    expect(memo.has("k")).toBe(false);
    expect(await remember(memo, "k", async () => 7)).toBe(7);
  });
});

describe("stepKey", () => {
  const call = (tool: string, params: unknown, escalated = false) => ({ tool, params, escalated });

  it("tells apart calls that differ in tool, arguments or the profile they run under", () => {
    const args = { command: "rm -rf build" };
    const d = digestArgs(args);
    const base = stepKey(call("bash", args), d, undefined);
    expect(stepKey(call("bash", args), d, { kind: "default" })).toBe(base);
    expect(stepKey(call("delete", args), d, undefined)).not.toBe(base);
    expect(stepKey(call("bash", args), digestArgs({ command: "rm -rf build/" }), undefined)).not.toBe(base);
    expect(stepKey(call("bash", args), d, strict as never)).not.toBe(base);
  });

  it("runs an escalated call under the default profile whatever the trial's profile", () => {
    const args = { path: "/home/user/.ssh/config" };
    const d = digestArgs(args);
    expect(stepKey(call("read", args, true), d, strict as never)).toBe(stepKey(call("read", args), d, undefined));
  });

  it("is the same for the same arguments written in any key order", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 })), (obj) => {
        const reversed = Object.fromEntries(Object.entries(obj).reverse());
        expect(stepKey(call("bash", obj), digestArgs(obj), undefined)).toBe(stepKey(call("bash", reversed), digestArgs(reversed), undefined));
      }),
    );
  });

  it("keys profiles by their content", () => {
    expect(profileKey(undefined)).toBe(profileKey({ kind: "default" }));
    expect(profileKey(strict as never)).not.toBe(profileKey(undefined));
  });
});

describe("which agents share world states", () => {
  it("scripted agents, the reference and nop do; real models do not", () => {
    expect(agentDeterministic({ kind: "nop" })).toBe(true);
    expect(agentDeterministic({ kind: "reference" })).toBe(true);
    expect(agentDeterministic({ kind: "persona", persona: { name: "p", harmful: true, steps: [] } as never })).toBe(true);
    expect(agentDeterministic({ kind: "model", id: "openai/gpt-4o" })).toBe(false);
  });
});
