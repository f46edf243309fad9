import { posix } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isInside } from "../../../../gates/path-policy/paths.ts";

/** The definition by path relation alone, for every pair of paths. */
function insideByRelation(root: string, target: string): boolean {
  const rel = posix.relative(root, target);
  return rel === "" || (rel !== ".." && !rel.startsWith("../") && !posix.isAbsolute(rel));
}

const segment = fc.constantFrom("a", "b", "ab", "a b", ".", "..", "", "...", "..a", ".git", "x.");
const path = fc
  .tuple(fc.boolean(), fc.array(segment, { maxLength: 6 }), fc.boolean())
  .map(([absolute, segments, trailing]) => `${absolute ? "/" : ""}${segments.join("/")}${trailing ? "/" : ""}`);

describe("isInside", () => {
  it("is a relation of paths, not of strings", () => {
    expect(isInside("/srv/app", "/srv/app")).toBe(true);
    expect(isInside("/srv/app", "/srv/app/x/y")).toBe(true);
    expect(isInside("/srv/app", "/srv/app2")).toBe(false);
    expect(isInside("/srv/app", "/srv")).toBe(false);
    expect(isInside("/", "/etc/passwd")).toBe(true);
    expect(isInside("/", "/")).toBe(true);
    expect(isInside("/srv/app", "/srv/app/..a")).toBe(true);
    expect(isInside("/srv/app", "/srv/app/../app2")).toBe(false);
    expect(isInside("/srv/app/", "/srv/app/x")).toBe(true);
    expect(isInside("/srv/app", "/srv//app/./x")).toBe(true);
    expect(isInside("/home/user/.ssh", "/home/user/.ssh/../.sshx")).toBe(false);
  });

  it("agrees with path.relative on every pair of paths, resolved or not", () => {
    fc.assert(
      fc.property(path, path, (root, target) => {
        expect(isInside(root, target)).toBe(insideByRelation(root, target));
      }),
      { numRuns: 20_000 },
    );
  });

  it("agrees with path.relative on pairs where one path extends the other", () => {
    fc.assert(
      fc.property(path, fc.string({ maxLength: 8 }), (root, rest) => {
        expect(isInside(root, root + rest)).toBe(insideByRelation(root, root + rest));
        expect(isInside(root + rest, root)).toBe(insideByRelation(root + rest, root));
      }),
      { numRuns: 20_000 },
    );
  });
});
