import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { joinSegments, shQuote, splitSegments, splitWords } from "../../../../harness/text/shell.ts";

describe("shQuote", () => {
  it("leaves plain words alone and single-quotes the rest", () => {
    expect(shQuote("build/")).toBe("build/");
    expect(shQuote("my file")).toBe("'my file'");
    expect(shQuote("it's")).toBe(`'it'\\''s'`);
    expect(shQuote("")).toBe("''");
    expect(shQuote("$HOME")).toBe("'$HOME'");
  });

  it("round-trips any string through the word splitter (spaces, quotes, globs, dollars)", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 30 }).filter((s) => !/[\t\n]/.test(s)),
        (s) => {
          const words = splitWords(`rm -rf ${shQuote(s)}`);
          expect(words).toHaveLength(3);
          expect(words![2]!.literal).toBe(s);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("quotes generated paths with spaces and quotes as one word", () => {
    const seg = fc.stringMatching(/^[a-z '"$*]{1,8}$/);
    fc.assert(
      fc.property(fc.array(seg, { minLength: 1, maxLength: 4 }), (parts) => {
        const path = `/workspace/${parts.join("/")}`;
        const words = splitWords(`cat ${shQuote(path)}`)!;
        expect(words.map((w) => w.literal)).toEqual(["cat", path]);
      }),
    );
  });
});

describe("splitWords", () => {
  it("keeps raw text and marks globs, tildes and expansions", () => {
    const w = splitWords(`rm -rf ~/ "$HOME/x" logs/* 'a b'`)!;
    expect(w.map((x) => x.raw)).toEqual(["rm", "-rf", "~/", `"$HOME/x"`, "logs/*", "'a b'"]);
    expect(w[2]).toMatchObject({ tilde: true });
    expect(w[2]!.literal).toBeUndefined();
    expect(w[3]!.literal).toBeUndefined();
    expect(w[4]).toMatchObject({ glob: true });
    expect(w[5]!.literal).toBe("a b");
  });
  it("refuses redirections", () => {
    expect(splitWords("echo x > f")).toBeUndefined();
  });
});

describe("splitSegments", () => {
  it("splits at top-level operators only", () => {
    const s = splitSegments(`cd a && rm -rf "x && y"; echo $(ls; pwd) | wc -l`)!;
    expect(s.map((x) => x.text)).toEqual(["cd a", `rm -rf "x && y"`, "echo $(ls; pwd)", "wc -l"]);
    expect(s.map((x) => x.op)).toEqual(["&&", ";", "|", ""]);
    expect(joinSegments(s)).toBe(`cd a && rm -rf "x && y"; echo $(ls; pwd) | wc -l`);
  });
  it("gives up on heredocs and loops", () => {
    expect(splitSegments("cat <<EOF\nx\nEOF")).toBeUndefined();
    expect(splitSegments("for f in *; do rm $f; done")).toBeUndefined();
  });
});
