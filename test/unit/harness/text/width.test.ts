/** Terminal columns, cutting and wrapping (harness/text/width.ts). */
import { describe, expect, it } from "vitest";
import { displayWidth, truncateToWidth, wrapToWidth } from "../../../../harness/text/width.ts";

describe("displayWidth", () => {
  it("counts a column per character, two for wide ones, none for combining marks", () => {
    expect(displayWidth("gate")).toBe(4);
    expect(displayWidth("界界")).toBe(4);
    expect(displayWidth("e\u0301")).toBe(1);
    expect(displayWidth("│ – … *")).toBe(7);
  });
});

describe("truncateToWidth", () => {
  it("leaves text that fits, cuts the rest to the width with an ellipsis", () => {
    expect(truncateToWidth("layered", 7)).toBe("layered");
    expect(truncateToWidth("claude-hook:./hooks/check.sh", 12)).toBe("claude-hook…");
    expect(displayWidth(truncateToWidth("x".repeat(200), 30))).toBe(30);
  });

  it("never splits a wide character over the limit", () => {
    const cut = truncateToWidth("界".repeat(50), 10);
    expect(displayWidth(cut)).toBeLessThanOrEqual(10);
    expect(cut.endsWith("…")).toBe(true);
  });
});

describe("wrapToWidth", () => {
  it("breaks at spaces, and inside a word longer than a line", () => {
    expect(wrapToWidth("a bb ccc dddd", 6)).toEqual(["a bb", "ccc", "dddd"]);
    const lines = wrapToWidth(`see /tmp/${"p".repeat(30)} now`, 10);
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(10);
    expect(lines).toEqual(["see", "/tmp/ppppp", "p".repeat(10), "p".repeat(10), "ppppp now"]);
  });
});
