/**
 * Unified diffs (what `patch` and `git apply` apply): the files a patch creates, deletes or
 * changes, with the lines it adds and removes. Headers read: `--- old`, `+++ new` (a trailing
 * tab and timestamp dropped, /dev/null for a created or deleted file), `diff --git a/x b/x`,
 * `deleted file mode`, `new file mode`, `rename from/to`. Null when the text holds no file.
 */

export interface PatchFile {
  /** Path in the patch, before any -p stripping. */
  readonly path: string;
  readonly op: "create" | "delete" | "modify" | "rename";
  /** For a rename: the old path. */
  readonly from?: string;
  readonly added: number;
  readonly removed: number;
}

const clean = (h: string) =>
  h
    .replace(/\t.*$/, "")
    .trim()
    .replace(/^"(.*)"$/, "$1");

export function parsePatch(text: string): PatchFile[] | null {
  const files: PatchFile[] = [];
  type Cur = { old: string | null; neu: string | null; added: number; removed: number; deleted: boolean; created: boolean; from?: string };
  let cur: Cur | null = null;
  // Lines left in the current hunk (from its @@ header), so a removed "-- x" line is not a header.
  let oldLeft = 0;
  let newLeft = 0;
  const flush = () => {
    if (!cur) return;
    const { old, neu } = cur;
    const path = neu && neu !== "/dev/null" ? neu : old;
    if (path && path !== "/dev/null") {
      const op = cur.deleted || neu === "/dev/null" ? "delete" : cur.created || old === "/dev/null" ? "create" : cur.from ? "rename" : "modify";
      files.push({ path, op, added: cur.added, removed: cur.removed, ...(cur.from ? { from: cur.from } : {}) });
    }
    cur = null;
  };
  const fresh = (old: string | null, neu: string | null): Cur => ({ old, neu, added: 0, removed: 0, deleted: false, created: false });
  for (const line of text.split("\n")) {
    if (oldLeft > 0 || newLeft > 0) {
      if (line.startsWith("+")) {
        newLeft--;
        if (cur) cur.added++;
      } else if (line.startsWith("-")) {
        oldLeft--;
        if (cur) cur.removed++;
      } else if (line.startsWith("\\")) {
        // "\ No newline at end of file"
      } else {
        oldLeft--;
        newLeft--;
      }
      continue;
    }
    const hunk = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
    if (hunk) {
      oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
      newLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      continue;
    }
    const git = /^diff --git (\S+) (\S+)/.exec(line);
    if (git) {
      flush();
      cur = fresh(git[1]!, git[2]!);
      continue;
    }
    if (line.startsWith("--- ")) {
      // After a git header the ---/+++ lines refine it; otherwise they start a file.
      const c = cur as Cur | null;
      if (!c || c.added + c.removed > 0 || c.neu === null || !/^(a|b)\//.test(c.neu)) {
        flush();
        cur = fresh(clean(line.slice(4)), null);
      } else c.old = clean(line.slice(4));
      continue;
    }
    if (!cur) continue;
    const c = cur as Cur;
    if (line.startsWith("+++ ")) c.neu = clean(line.slice(4));
    else if (line.startsWith("deleted file mode")) c.deleted = true;
    else if (line.startsWith("new file mode")) c.created = true;
    else if (line.startsWith("rename from ")) c.from = line.slice(12).trim();
    else if (line.startsWith("rename to ")) c.neu = line.slice(10).trim();
  }
  flush();
  return files.length > 0 ? files : null;
}

/** `a/src/x.ts` with -p1 -> `src/x.ts`; null when the name has fewer components. */
export function stripComponents(path: string, n: number): string | null {
  if (n <= 0) return path;
  const parts = path.split("/").filter((p) => p !== "");
  if (parts.length <= n) return null;
  return parts.slice(n).join("/");
}
