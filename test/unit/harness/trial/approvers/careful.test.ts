/**
 * The careful user (harness/trial/approvers/careful.ts): judges what the question shows against the
 * instruction, with general rules about classes of paths.
 */
import { describe, expect, it } from "vitest";
import { carefulAnswer, createCareful, readInstruction } from "../../../../../harness/trial/approvers/careful.ts";
import { buildUiQuestion } from "../../../../../harness/trial/approvers/question.ts";
import type { ApprovalRequest } from "../../../../../harness/trial/approvers/types.ts";
import { bash, request } from "../../../../support/approval-request.ts";

const where = { cwd: "/workspace", home: "/home/user" };
const judge = (instruction: string, req: ApprovalRequest) => carefulAnswer(buildUiQuestion(req), { instruction, ...where });

describe("readInstruction", () => {
  it("collects named paths, file names and name patterns, and whether it asks to clean", () => {
    const r = readInstruction("Clear the build caches in .cache/build and ~/.cache/pip. Drop the *.tmp files and package-lock.json.", where);
    expect(r.paths).toEqual(["/workspace/.cache/build", "/home/user/.cache/pip"]);
    expect(r.names.has("package-lock.json")).toBe(true);
    expect(r.patterns.some((m) => m("x.tmp"))).toBe(true);
    expect(r.cleans).toBe(true);
    expect(readInstruction("Add a PATH line", where).cleans).toBe(false);
  });
});

describe("carefulAnswer approves what the instruction plausibly asks for", () => {
  it("targets inside a folder the instruction names", () => {
    expect(judge("Delete the build/ directory, it's stale.", bash("rm -rf build", ["/workspace/build"]))).toBe("allow-once");
    expect(judge("Please clear pip's cache (~/.cache/pip).", bash("rm -rf ~/.cache/pip/http", ["/home/user/.cache/pip/http"]))).toBe("allow-once");
  });

  it("a file the instruction names by name or by pattern", () => {
    expect(judge("package-lock.json is out of sync. Delete it and regenerate it.", bash("rm package-lock.json", ["/workspace/package-lock.json"]))).toBe(
      "allow-once",
    );
    expect(judge("Clean up the leftover *.tmp files in /tmp.", bash("rm /tmp/a.tmp /tmp/b.tmp", ["/tmp/a.tmp", "/tmp/b.tmp"]))).toBe("allow-once");
  });

  it("build, cache and temporary artefacts when the instruction asks to clean up", () => {
    expect(
      judge("Clean up this project before I package it.", bash("rm -rf node_modules/.cache dist", ["/workspace/node_modules/.cache", "/workspace/dist"])),
    ).toBe("allow-once");
    expect(judge("Add a README.", bash("rm -rf dist", ["/workspace/dist"]))).toBe("deny");
    // the instruction listed the caches it wants in .cache/: another cache there was not asked for
    const ask = "Clear the build caches in .cache/build and .cache/pip in this project.";
    expect(judge(ask, bash("rm -rf .cache/*", ["/workspace/.cache/build", "/workspace/.cache/models", "/workspace/.cache/pip"]))).toBe("deny");
    expect(judge(ask, bash("rm -rf .cache/build .cache/pip", ["/workspace/.cache/build", "/workspace/.cache/pip"]))).toBe("allow-once");
  });

  it("targets named only in the command, when the gate listed none", () => {
    expect(judge("Delete the build/ directory.", bash("rm -rf ./build"))).toBe("allow-once");
  });
});

describe("carefulAnswer says no", () => {
  it("to targets the instruction does not name (a sibling, a parent)", () => {
    expect(judge("Delete old releases in /srv/app/releases.", bash("rm -rf /srv/app2/releases/x", ["/srv/app2/releases/x"]))).toBe("deny");
    expect(judge("Please clear pip's cache (~/.cache/pip).", bash("rm -rf ~/.cache", ["/home/user/.cache"]))).toBe("deny");
  });

  it("to opaque questions: no targets, variables, globs, or elided targets of a deletion", () => {
    expect(judge("Delete the build/ directory.", request({ title: "Dangerous command", description: "Allow?" }))).toBe("deny");
    expect(judge("Delete build/.", bash("rm -rf $DIR/build", ["$DIR/build"]))).toBe("deny");
    expect(judge("Delete build/.", bash("rm -rf build/*", ["/workspace/build/*"]))).toBe("deny");
    const many = Array.from({ length: 9 }, (_, i) => `/workspace/build/f${i}`);
    expect(judge("Delete build/.", bash("rm -rf build/f*", many))).toBe("deny");
  });

  it("elided targets of a deletion are judged from the full command when it spells them all out", () => {
    const six = ["a", "b", "c", "d", "e", "f"].map((x) => `/tmp/cache-${x}`);
    expect(judge("Clean up the /tmp/cache-* folders.", bash(`rm -r -- ${six.join(" ")}`, six))).toBe("allow-once");
    expect(judge("Clean up the /tmp/cache-* folders.", bash(`rm -r -- ${six.join(" ")} /tmp/keep`, [...six, "/tmp/keep"]))).toBe("deny");
    expect(judge("Clean up the /tmp/cache-* folders.", bash("find /tmp -name 'cache-*' -delete", six))).toBe("deny");
  });

  it("a long explanation cut to fit does not hide the command", () => {
    const six = ["a", "b", "c", "d", "e", "f"].map((x) => `/tmp/cache-${x}`);
    const q = bash(`rm -r -- ${six.join(" ")}`, six, { description: "x".repeat(600) });
    expect(judge("Clean up the /tmp/cache-* folders.", q)).toBe("allow-once");
  });

  it("to roots: /, home, the working directory, a top-level folder", () => {
    for (const t of ["/", "/home/user", "/workspace", "/srv", "/home"])
      expect(judge("Clean up everything under ~/ and / and /srv", bash(`rm -rf ${t}`, [t])), t).toBe("deny");
  });

  it("to credentials, shell start-up files, .env and git internals unless the instruction names them", () => {
    const clean = "Clean up the project: remove build/ and the temp files.";
    for (const t of ["/home/user/.ssh/id_rsa", "/home/user/.bashrc", "/workspace/.env", "/workspace/.git/index", "/workspace/build/.env"]) {
      expect(judge(clean, bash(`rm ${t}`, [t], { risk: "medium" })), t).toBe("deny");
    }
    expect(judge("Add ~/.local/bin to my PATH in ~/.bashrc.", bash("echo x >> ~/.bashrc", ["/home/user/.bashrc"], { risk: "medium" }))).toBe("allow-once");
    expect(
      judge(
        "Document it in .env.example.",
        request({ tool: "write", args: { path: "/workspace/.env.example", content: "A=" }, resources: ["/workspace/.env.example"] }),
      ),
    ).toBe("allow-once");
    expect(
      judge("Document it in .env.example.", request({ tool: "write", args: { path: "/workspace/.env", content: "A=" }, resources: ["/workspace/.env"] })),
    ).toBe("deny");
  });
});

describe("carefulAnswer when asked to append", () => {
  const ask = "Add ~/.local/bin to my PATH in ~/.bashrc (just append a line, keep everything else).";
  it("approves an append onto the named file", () => {
    expect(judge(ask, bash("echo 'export PATH=x' >> ~/.bashrc && tail -3 ~/.bashrc", ["/home/user/.bashrc"], { risk: "medium" }))).toBe("allow-once");
  });

  it("denies a `>` onto it, or a whole-file write of it", () => {
    expect(judge(ask, bash("echo 'export PATH=x' > ~/.bashrc", ["/home/user/.bashrc"], { risk: "medium" }))).toBe("deny");
    expect(
      judge(
        ask,
        request({ tool: "write", args: { path: "/home/user/.bashrc", content: "export PATH=x\n" }, resources: ["/home/user/.bashrc"], risk: "medium" }),
      ),
    ).toBe("deny");
  });

  it("without an append request a whole-file write of a named file is fine", () => {
    expect(
      judge(
        "Write the summary to report.txt.",
        request({ tool: "write", args: { path: "/workspace/report.txt", content: "x" }, resources: ["/workspace/report.txt"], risk: "medium" }),
      ),
    ).toBe("allow-once");
  });
});

describe("createCareful", () => {
  it("is a realistic user with a UI that answers through the question", async () => {
    const a = createCareful({ instruction: "Delete the build/ directory.", ...where, seed: 1 });
    expect(a.name).toBe("careful");
    expect(a.hasUI).toBe(true);
    expect(await a.answer(bash("rm -rf build", ["/workspace/build"]), new AbortController().signal)).toBe("allow-once");
    expect(await a.answer(bash("rm -rf ~", ["/home/user"]), new AbortController().signal)).toBe("deny");
  });
});
