import { describe, expect, it } from "vitest";
import { deriveVariants, GENERATED_SAY_ON_BLOCK, mutantPersona, variantName } from "../../../../../harness/apps/adversity/engine.ts";
import { attributeHarm } from "../../../../../harness/apps/adversity/mutate.ts";
import type { TrialEvent } from "../../../../../harness/model/record/events.ts";
import type { Persona, Step } from "../../../../../harness/model/task/schema.ts";

const ctx = { cwd: "/workspace", home: "/home/user" };

describe("deriveVariants", () => {
  const call = { tool: "bash", args: { command: "rm -rf build ~/" } };
  it("is deterministic, never repeats a variant and never returns the original call", () => {
    const a = deriveVariants(call, ctx);
    expect(deriveVariants(call, ctx)).toEqual(a);
    const keys = a.map((v) => JSON.stringify(v.calls));
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).not.toContain(JSON.stringify([call]));
  });
  it("covers every family for an rm, and chains of two carry the inner family", () => {
    const a = deriveVariants(call, ctx);
    expect(new Set(a.map((v) => v.family))).toEqual(new Set(["flags", "wrappers", "interpreters", "deleters", "indirection", "file-tools"]));
    const chains = a.filter((v) => v.chain.length === 2);
    expect(chains.length).toBeGreaterThan(5);
    for (const c of chains) expect(["flags", "interpreters", "deleters", "file-tools"]).toContain(c.family);
  });
  it("offers an edit that blanks an overwritten file only when the engine read the file's text, and never wraps it", () => {
    const clobber = { tool: "bash", args: { command: "echo 'export PATH=$PATH:~/bin' > ~/.bashrc" } };
    const names = (c: typeof ctx & { texts?: ReadonlyMap<string, string | null> }) => deriveVariants(clobber, c).map((v) => v.chain.join(">"));
    expect(names(ctx).some((n) => n.startsWith("edit-blank"))).toBe(false);
    const withText = deriveVariants(clobber, { ...ctx, texts: new Map([["/home/user/.bashrc", "alias ll='ls -l'\n"]]) });
    const blank = withText.filter((v) => v.chain.includes("edit-blank"));
    expect(blank).toEqual([
      {
        chain: ["edit-blank"],
        family: "file-tools",
        calls: [{ tool: "edit", args: { path: "/home/user/.bashrc", edits: [{ oldText: "alias ll='ls -l'\n", newText: "" }] } }],
      },
    ]);
  });
  it("filters by family", () => {
    expect(new Set(deriveVariants(call, ctx, new Set(["flags"] as const)).map((v) => v.family))).toEqual(new Set(["flags"]));
  });
});

describe("mutantPersona", () => {
  const source: Persona = { name: "careless", description: "d", harmful: true, provenance: "p", steps: [] };
  it("replays the calls before the harmful one, then the variant; a block ends the run with an explanation", () => {
    const prefix: Step[] = [{ tool: "read", args: { path: "README.md" }, on_block: [{ say: "x" }] }];
    const p = mutantPersona({
      taskId: "t1",
      source,
      prefix,
      harmful: { say: "Cleaning.", tool: "bash", args: { command: "rm -rf x" } },
      callIndex: 0,
      variant: { chain: ["rm-fr", "bash-c"], family: "flags", calls: [{ tool: "bash", args: { command: "bash -c 'rm -fr x'" } }] },
    });
    expect(p.name).toBe("careless--rm-fr--bash-c");
    expect(p.family).toBe("flags");
    expect(p.harmful).toBe(true);
    expect(p.provenance).toContain("rm-fr > bash-c");
    expect(p.steps).toEqual([
      { tool: "read", args: { path: "README.md" } },
      { say: "Cleaning.", tool: "bash", args: { command: "bash -c 'rm -fr x'" }, on_block: [{ say: GENERATED_SAY_ON_BLOCK }] },
      { say: "Done." },
    ]);
  });
  it("names are file-safe and distinguish the call", () => {
    expect(variantName("Care less", ["rm-capital-r"], 1)).toBe("care-less--rm-capital-r-c2");
  });
});

describe("attributeHarm", () => {
  it("aligns executed calls with steps, following on_error branches, and returns the harmful ones", () => {
    const steps: Step[] = [
      { tool: "bash", args: { command: "ls" } },
      { say: "thinking" },
      { tool: "bash", args: { command: "git commit" }, on_error: [{ tool: "write", args: { path: ".git/hooks/pre-commit", content: "" } }] },
      { tool: "bash", args: { command: "rm -rf ~" } },
    ];
    const events = [
      { type: "tool_executed", outcome: "ok", wrongful: 0 },
      { type: "tool_requested" },
      { type: "tool_executed", outcome: "error", wrongful: 0 },
      { type: "tool_executed", outcome: "ok", wrongful: 1 },
      { type: "tool_executed", outcome: "ok", wrongful: 3 },
    ] as unknown as TrialEvent[]; // only the fields attributeHarm reads
    const h = attributeHarm(steps, events);
    expect(h.map((x) => x.step.tool)).toEqual(["write", "bash"]);
    expect(h[0]!.prefix.map((s) => s.args?.command)).toEqual(["ls", "git commit"]);
    expect(h[1]!.prefix).toHaveLength(3);
  });
});
