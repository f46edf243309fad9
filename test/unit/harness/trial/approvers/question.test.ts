/** The question a UI shows (harness/trial/approvers/question.ts): what it keeps, and the character budget. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildUiQuestion,
  callSummary,
  QUESTION_BUDGET,
  questionLength,
  renderQuestion,
  SHOWN_TARGETS,
} from "../../../../../harness/trial/approvers/question.ts";
import { bash, request } from "../../../../support/approval-request.ts";

describe("callSummary", () => {
  it("shows a bash command as is and file tools as one line", () => {
    expect(callSummary("bash", { command: "rm -rf build" })).toBe("rm -rf build");
    expect(callSummary("write", { path: "/home/user/.bashrc", content: "abc\n" })).toBe("write /home/user/.bashrc (4 bytes, whole file)");
    expect(callSummary("edit", { path: "a.txt", edits: [{}, {}] })).toBe("edit a.txt (2 replacements)");
    expect(callSummary("delete", { path: "build", recursive: true })).toBe("delete build (recursive)");
    expect(callSummary("read", { path: "x" })).toBe("read x");
  });
});

describe("buildUiQuestion", () => {
  it("keeps title, command, targets and detail when they fit", () => {
    const q = buildUiQuestion(bash("rm -rf build dist", ["/workspace/build", "/workspace/dist"], { description: "rm deletes /workspace/build" }));
    expect(q).toMatchObject({ tool: "bash", command: "rm -rf build dist", targets: ["/workspace/build", "/workspace/dist"], moreTargets: 0, truncated: false });
    expect(q.detail).toBe("rm deletes /workspace/build");
  });

  it("lists the first few targets and counts the rest", () => {
    const many = Array.from({ length: 12 }, (_, i) => `/workspace/f${i}`);
    const q = buildUiQuestion(bash("rm f*", many));
    expect(q.targets).toEqual(many.slice(0, SHOWN_TARGETS));
    expect(q.moreTargets).toBe(12 - SHOWN_TARGETS);
  });

  it("cuts a long command and marks the question truncated", () => {
    const q = buildUiQuestion(bash(`echo ${"x".repeat(1000)} > out`));
    expect(q.truncated).toBe(true);
    expect(q.command.endsWith("…")).toBe(true);
    expect(q.command).not.toContain("> out");
  });

  it("never carries the raw arguments or anything beyond the rendered fields", () => {
    const q = buildUiQuestion(request({ tool: "write", args: { path: "/w/a", content: "SECRET-CONTENT" } }));
    expect(JSON.stringify(q)).not.toContain("SECRET-CONTENT");
    expect(Object.keys(q).sort()).toEqual([
      "command",
      "confirmationId",
      "detail",
      "moreTargets",
      "risk",
      "targets",
      "title",
      "tool",
      "toolCallId",
      "truncated",
    ]);
  });

  it("property: the rendered fields never exceed the budget, and every named target is shown or counted", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.string({ maxLength: 600 }),
        fc.string({ maxLength: 900 }),
        fc.array(fc.string({ minLength: 1, maxLength: 120 }), { maxLength: 20 }),
        (title, command, description, resources) => {
          const q = buildUiQuestion(bash(command, resources, { title, description }));
          expect(questionLength(q)).toBeLessThanOrEqual(QUESTION_BUDGET);
          expect(q.targets.length + q.moreTargets).toBe(resources.length);
          expect(q.targets).toEqual(resources.slice(0, q.targets.length));
        },
      ),
    );
  });

  it("renders for a terminal with the count of hidden targets", () => {
    const text = renderQuestion(buildUiQuestion(bash("rm -r a b c d e f g", ["a", "b", "c", "d", "e", "f", "g"])));
    expect(text).toContain("$ rm -r a b c d e f g");
    expect(text).toContain("… and 2 more");
  });
});
