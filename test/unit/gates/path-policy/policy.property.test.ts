/**
 * Properties of path-policy over generated trees and operands:
 * - a write whose real target (by the kernel's reading of the operand, or by a tool that
 *   normalises `..` lexically first) lies under a deny_write root is always denied;
 * - isInside agrees with a segment-wise reference.
 */
import fc from "fast-check";
import { posix } from "node:path";
import { describe, expect, it } from "vitest";
import { expandPath, isInside, judgeTargets, parsePathPolicy } from "../../../../gates/path-policy/index.ts";
import { createFakeEnv } from "../../../../scripts/fixtures/fake-env.ts";

const HOME = "/home/user";
const DENY_ROOTS = ["/home/user/.ssh", "/workspace/a/b"];
const policy = parsePathPolicy({ deny_write: ["~/.ssh", "/workspace/a/b"], confirm_write: ["**/.env"] }, "property");

/** Where links may be planted, and what they may point at (absolute, relative, dangling, loops). */
const LINK_SLOTS = ["/workspace/l1", "/workspace/a/l2", "/home/user/l3", "/tmp/l4", "/workspace/a/b/l5"];
const LINK_TARGETS = [
  "/home/user/.ssh",
  "../.ssh",
  "/workspace/a",
  "..",
  "a/b",
  "/tmp",
  "/home/user",
  "l1",
  "../l1",
  "/nonexistent",
  "/home/user/.ssh/authorized_keys",
  ".ssh",
  "b",
  "/workspace/a/b/new",
];
const SEGMENTS = ["..", ".", "", "workspace", "home", "user", ".ssh", "a", "b", "l1", "l2", "l3", "l4", "l5", "tmp", "authorized_keys", "new", ".env"];

const treeArb = fc.array(fc.tuple(fc.constantFrom(...LINK_SLOTS), fc.constantFrom(...LINK_TARGETS)), { maxLength: 5 });
const operandArb = fc
  .tuple(
    fc.constantFrom("", "/", "~", "~/", "@", "./", "../", "~/.ssh/", "l1/", "a/l2/", "~/l3/", "/tmp/l4/", "a/b/", "a/"),
    fc.array(fc.constantFrom(...SEGMENTS), { minLength: 0, maxLength: 7 }),
    fc.boolean(),
  )
  .map(([prefix, segs, trailing]) => {
    const body = segs.join("/");
    const p = prefix === "~" ? (body ? `~/${body}` : "~") : prefix + body;
    return trailing && p !== "" ? `${p}/` : p || ".";
  });

function buildEnv(links: [string, string][]) {
  const env = createFakeEnv({
    dirs: ["/workspace/a/b", "/home/user/.ssh", "/tmp"],
    files: { "/home/user/.ssh/id_rsa": "KEY", "/workspace/a/file.txt": "x", "/workspace/.env": "T=1" },
  });
  for (const [slot, target] of links) env.addLink(slot, target);
  return env;
}

/** Every object a write of `operand` may reach: the kernel's reading and the lexical one. */
function realTargets(env: ReturnType<typeof buildEnv>, operand: string): string[] {
  const expanded = expandPath(operand, HOME);
  const raw = expanded.startsWith("/") ? expanded : `${env.cwd}/${expanded}`;
  const out = [env.kernelTarget(raw), env.kernelTarget(posix.resolve(env.cwd, expanded))];
  return out.filter((p): p is string => p !== null);
}

/** Segment-wise containment, the reference for isInside. */
function insideRef(root: string, target: string): boolean {
  const segs = (p: string) => posix.normalize(p).split("/").filter(Boolean);
  const r = segs(root);
  const t = segs(target);
  return r.length <= t.length && r.every((s, i) => s === t[i]);
}

describe("path-policy properties", () => {
  it("never allows or merely confirms a write whose real target is under a deny_write root", async () => {
    let hits = 0;
    await fc.assert(
      fc.asyncProperty(treeArb, operandArb, async (links, operand) => {
        const env = buildEnv(links);
        const reached = realTargets(env, operand);
        const protectedTarget = reached.find((p) => DENY_ROOTS.some((root) => insideRef(root, p)));
        if (protectedTarget === undefined) return;
        hits++;
        const d = await judgeTargets([{ path: operand, op: "write" }], policy, env);
        expect(d.kind, `${operand} reaches ${protectedTarget} with links ${JSON.stringify(links)}: ${JSON.stringify(d)}`).toBe("deny");
      }),
      { numRuns: 8000, seed: 20240601, endOnFailure: true },
    );
    // The generator must actually reach protected targets often enough to mean something.
    expect(hits).toBeGreaterThan(300);
  });

  it("a write it allows reaches only paths inside the workspace and outside every deny root", async () => {
    await fc.assert(
      fc.asyncProperty(treeArb, operandArb, async (links, operand) => {
        const env = buildEnv(links);
        const d = await judgeTargets([{ path: operand, op: "write" }], policy, env);
        if (d.kind !== "allow") return;
        for (const p of realTargets(env, operand)) {
          expect(insideRef("/workspace", p), `${operand} -> ${p}`).toBe(true);
          expect(
            DENY_ROOTS.some((r) => insideRef(r, p)),
            `${operand} -> ${p}`,
          ).toBe(false);
        }
      }),
      { numRuns: 2000, seed: 7 },
    );
  });

  it("isInside agrees with a segment-wise reference", () => {
    const seg = fc.constantFrom("a", "b", "ab", "a2", "app", "app2", "..", ".", "");
    const abs = fc.array(seg, { maxLength: 6 }).map((s) => `/${s.join("/")}`);
    fc.assert(
      fc.property(abs, abs, (root, target) => {
        expect(isInside(root, target)).toBe(insideRef(root, target));
      }),
      { numRuns: 5000 },
    );
  });
});
