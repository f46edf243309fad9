import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { classifyEdScript, classifyPerlEdit, classifySed } from "../../../../gates/shell/edit-scripts.ts";

describe("classifySed", () => {
  it.each([
    ["s/foo/bar/", "edit"],
    ["s|a|b|g;s/x/y/", "edit"],
    ["s/[[:space:]]*$//", "edit"],
    ["y/abc/xyz/", "edit"],
    ["1i header", "edit"],
    ["$a\\\nfooter", "edit"],
    ["/x/p", "edit"],
    ["d", "destructive"],
    ["1,$d", "destructive"],
    ["/^#/d", "destructive"],
    ["/keep/!d", "destructive"],
    ["5q", "destructive"],
    ["s/.*//", "destructive"],
    ["s/^.*$//", "destructive"],
    ["2c\\\nreplaced", "destructive"],
    ["x", "destructive"],
    ["not a script {", "destructive"],
  ])("%j is %s", (script, kind) => {
    expect(classifySed(script).kind).toBe(kind);
  });

  it("-n keeps only printed lines: destructive in place", () => {
    expect(classifySed("p", true).kind).toBe("destructive");
  });

  it("w files and the e flag are reported", () => {
    expect(classifySed("s/a/b/w out.txt").writes).toEqual(["out.txt"]);
    expect(classifySed("/x/w other.txt").writes).toEqual(["other.txt"]);
    expect(classifySed("s/a/b/e").executes).toBe(true);
  });

  it("any script of substitutions with non-empty replacements is an edit", () => {
    const word = fc.stringMatching(/^[a-z0-9 ]{1,8}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(word, word, fc.constantFrom("", "g", "gi", "2")), { minLength: 1, maxLength: 4 }), (subs) => {
        const script = subs.map(([a, b, f]) => `s/${a}/${b}/${f}`).join(";");
        expect(classifySed(script).kind).toBe("edit");
      }),
    );
  });
});

describe("classifyPerlEdit", () => {
  it.each([
    ["s/a/b/", "p", "edit"],
    ["s{a}{b}g; tr/a-z/A-Z/", "p", "edit"],
    ["y/a/b/", "p", "edit"],
    ["s/a/b/", "", "destructive"],
    ["print if /x/", "n", "destructive"],
    ['$_ = ""', "p", "destructive"],
    ["s/.*//s", "p", "destructive"],
    ["s/a/`rm -rf ~`/e", "p", "destructive"],
    ["next if /x/", "p", "destructive"],
  ])("%j under -%s is %s", (code, loop, kind) => {
    expect(classifyPerlEdit(code, loop)).toBe(kind);
  });
});

describe("classifyEdScript", () => {
  it.each([
    ["1,$s/users/customers/g\nw\nq\n", "edit"],
    ["%s/a/b/g | wq", "edit"],
    ["g/x/s/a/b/", "edit"],
    ["$a\nnew line\n.\nw\n", "edit"],
    ["m0\nw", "edit"],
    ["1,$d\nw\nq\n", "destructive"],
    ["%d", "destructive"],
    ["g/x/d", "destructive"],
    ["v/keep/d", "destructive"],
    ["normal dd", "destructive"],
    ["2c\nx\n.\n", "destructive"],
    ["%s/.*//", "destructive"],
  ])("%j is %s", (script, kind) => {
    expect(classifyEdScript(script).kind).toBe(kind);
  });

  it("! runs a command, w FILE writes another file", () => {
    expect(classifyEdScript("!rm -rf ~").executes).toBe(true);
    expect(classifyEdScript("w /tmp/copy").writes).toEqual(["/tmp/copy"]);
  });
});
