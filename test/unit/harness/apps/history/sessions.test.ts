/**
 * Reading a user's sessions (harness/apps/history/sessions.ts): files found under folders,
 * recursively; each file's format told from its content; every call mapped onto gatebench's
 * tools with the project root as /workspace; files in no known format skipped with the reason.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { findSessionFiles, readHistory, sniffFormat } from "../../../../../harness/apps/history/sessions.ts";
import { InputError } from "../../../../../kernel/errors.ts";

const FIXTURES = join(import.meta.dirname, "../../../../fixtures/transcripts");

describe("history sessions", () => {
  it("finds the session files under a folder, recursively, and tells each one's format from its content", () => {
    const dir = mkdtempSync(join(tmpdir(), "gatebench-history-"));
    mkdirSync(join(dir, "projects", "-home-dana-calc"), { recursive: true });
    writeFileSync(join(dir, "projects", "-home-dana-calc", "notes.txt"), "not a session");
    writeFileSync(join(dir, "projects", "-home-dana-calc", "other.jsonl"), '{"hello":"world"}\n');
    const files = findSessionFiles([FIXTURES, dir]);
    expect(files).toEqual([...files].sort());
    expect(files.map((f) => basename(f)).sort()).toEqual([
      "atif-cleanup-tmp.json",
      "claude-code-trailing-tilde.jsonl",
      "codex-reset-hard.jsonl",
      "inspect-find-delete.eval",
      "inspect-find-delete.json",
      "other.jsonl",
      "pi-python-rmtree.jsonl",
    ]);
    const { sessions, skipped } = readHistory(files);
    expect(sessions.map((s) => [basename(s.file), s.format])).toEqual([
      ["atif-cleanup-tmp.json", "atif"],
      ["claude-code-trailing-tilde.jsonl", "claude-code"],
      ["codex-reset-hard.jsonl", "codex"],
      ["inspect-find-delete.eval", "inspect"],
      ["inspect-find-delete.json", "inspect"],
      ["pi-python-rmtree.jsonl", "pi"],
    ]);
    expect(skipped).toEqual([{ file: join(dir, "projects", "-home-dana-calc", "other.jsonl"), reason: expect.stringContaining("not a session of") }]);
  });

  it("maps every call with its working directory: the project root becomes /workspace, the home /home/user", () => {
    const { sessions } = readHistory([join(FIXTURES, "claude-code-trailing-tilde.jsonl")]);
    const [s] = sessions;
    expect(s!.root).toBe("/home/dana/calc");
    expect(s!.calls[0]).toMatchObject({
      index: 1,
      name: "Bash",
      status: "ok",
      cwd: "/workspace",
      mapped: [{ tool: "bash", args: { command: "ls -la /workspace" } }],
    });
    expect(s!.calls.map((c) => c.status)).toContain("blocked");
  });

  it("sniffs nothing from text that is no session", () => {
    expect(sniffFormat("a.json", new TextEncoder().encode('{"x":1}'))).toBeUndefined();
    expect(sniffFormat("a.jsonl", new TextEncoder().encode("plain text\n"))).toBeUndefined();
  });

  it("a path that does not exist is bad input naming it", () => {
    expect(() => findSessionFiles(["/nonexistent/sessions"])).toThrow(InputError);
    expect(() => findSessionFiles(["/nonexistent/sessions"])).toThrow(/\/nonexistent\/sessions/);
  });
});
