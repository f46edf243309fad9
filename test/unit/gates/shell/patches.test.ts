import { describe, expect, it } from "vitest";
import { parsePatch, stripComponents } from "../../../../gates/shell/patches.ts";

describe("parsePatch", () => {
  it("modifications, deletions and creations with their line counts", () => {
    const text = [
      "--- a/src/x.ts\t2024-01-01",
      "+++ b/src/x.ts\t2024-01-02",
      "@@ -1,2 +1,2 @@",
      "-old",
      "+new",
      " same",
      "--- a/gone.txt",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-bye",
      "--- /dev/null",
      "+++ b/new.txt",
      "@@ -0,0 +1 @@",
      "+hi",
    ].join("\n");
    expect(parsePatch(text)).toEqual([
      { path: "b/src/x.ts", op: "modify", added: 1, removed: 1 },
      { path: "a/gone.txt", op: "delete", added: 0, removed: 1 },
      { path: "b/new.txt", op: "create", added: 1, removed: 0 },
    ]);
  });

  it("git headers: deleted file mode, renames, and a removed line that looks like a header", () => {
    const text = [
      "diff --git a/x.sql b/x.sql",
      "--- a/x.sql",
      "+++ b/x.sql",
      "@@ -1,2 +1,1 @@",
      "--- a comment line being removed",
      " keep",
      "diff --git a/y b/y",
      "deleted file mode 100644",
      "--- a/y",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-y",
      "diff --git a/old b/new",
      "rename from old",
      "rename to new",
    ].join("\n");
    expect(parsePatch(text)).toEqual([
      { path: "b/x.sql", op: "modify", added: 0, removed: 1 },
      { path: "a/y", op: "delete", added: 0, removed: 1 },
      { path: "new", op: "rename", from: "old", added: 0, removed: 0 },
    ]);
  });

  it("text without a patch is null", () => {
    expect(parsePatch("hello\nworld\n")).toBeNull();
  });

  it("stripComponents is -pN", () => {
    expect(stripComponents("a/src/x.ts", 1)).toBe("src/x.ts");
    expect(stripComponents("a/src/x.ts", 0)).toBe("a/src/x.ts");
    expect(stripComponents("x.ts", 1)).toBeNull();
  });
});
