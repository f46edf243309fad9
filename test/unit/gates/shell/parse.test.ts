import { describe, expect, it } from "vitest";
import { decodeAnsiC, parseBash, type SimpleCommand, type Word } from "../../../../gates/shell/parse.ts";

const lits = (c: SimpleCommand) => c.words.map((w: Word) => w.literal);

describe("parseBash", () => {
  it("unquotes words like bash", async () => {
    const p = await parseBash(`\\rm 'r'm "rm" r\\m a\\ b "x"'y'z`);
    expect(p.hasError).toBe(false);
    expect(lits(p.commands[0]!)).toEqual(["rm", "rm", "rm", "rm", "a b", "xyz"]);
  });

  it("keeps expansions as parts and flags them", async () => {
    const p = await parseBash(`rm -rf "$D/"x ~/a *.txt`);
    const words = p.commands[0]!.words;
    expect(words[2]!.hasExpansion).toBe(true);
    expect(words[2]!.parts).toEqual([
      { kind: "var", name: "D", quoted: true },
      { kind: "lit", text: "/", quoted: true },
      { kind: "lit", text: "x", quoted: false },
    ]);
    expect(words[3]!.parts).toEqual([{ kind: "lit", text: "~/a", quoted: false }]);
    expect(words[4]!.literal).toBe("*.txt");
  });

  it("an empty quoted string is an empty argument, not nothing", async () => {
    const p = await parseBash(`rm -rf "" ''`);
    expect(lits(p.commands[0]!)).toEqual(["rm", "-rf", "", ""]);
  });

  it("finds commands inside lists, pipelines, subshells, groups, loops, if, case, functions", async () => {
    const p = await parseBash(`a && b || c; d | e; (f); { g; }; for i in x; do h; done; if i1; then j; fi; case x in x) k;; esac; fn() { l; }; ! m; n &`);
    expect(p.commands.map((c) => c.words[0]?.literal)).toEqual(["a", "b", "c", "d", "e", "f", "g", "h", "i1", "j", "k", "l", "m", "n"]);
    expect(p.commands.find((c) => c.words[0]?.literal === "e")!.pipedFrom).toBe(p.commands.find((c) => c.words[0]?.literal === "d")!.id);
  });

  it("walks command substitutions and backticks before the outer command", async () => {
    const p = await parseBash('echo $(rm a `rm b`) "x$(rm c)" $(( $(rm d) + 1 ))');
    const names = p.commands.map((c) => c.words.map((w) => w.literal ?? "?").join(" "));
    expect(names).toContain("rm b");
    expect(names).toContain("rm c");
    expect(names).toContain("rm d");
    expect(p.commands.filter((c) => c.inSubstitution).length).toBe(4);
    expect(p.commands.at(-1)!.words[0]!.literal).toBe("echo");
  });

  it("records redirections with fd and operator", async () => {
    const p = await parseBash(`cmd > out 2>/dev/null >> log &> all < in 2>&1`);
    const r = p.commands[0]!.redirects.map((x) => [x.op, x.fd, x.target?.literal]);
    expect(r).toEqual([
      [">", null, "out"],
      [">", 2, "/dev/null"],
      [">>", null, "log"],
      ["&>", null, "all"],
      ["<", null, "in"],
      [">&", 2, "1"],
    ]);
  });

  it("words after a redirection are arguments, not more targets", async () => {
    for (const [src, argv, target] of [
      ["rm -rf 2>/dev/null /", ["rm", "-rf", "/"], "/dev/null"],
      ["rm -rf >/dev/null ~", ["rm", "-rf", "~"], "/dev/null"],
      ["git checkout >'f' -- foo", ["git", "checkout", "--", "foo"], "f"],
      ["rm 2>/dev/null -rf a b", ["rm", "-rf", "a", "b"], "/dev/null"],
    ] as const) {
      const c = (await parseBash(src)).commands[0]!;
      expect(lits(c), src).toEqual(argv);
      expect(c.redirects[0]!.target?.literal, src).toBe(target);
    }
  });

  it("records function definitions so later calls are known", async () => {
    const p = await parseBash("cleanup() { rm -rf build; }; cleanup");
    expect(p.steps.filter((s) => s.kind === "define-function")).toEqual([{ kind: "define-function", name: "cleanup" }]);
  });

  it("keeps heredoc bodies, quoted or with expansions, and the pipeline after them", async () => {
    const q = await parseBash(`cat <<'EOF' | sh\nrm $X\nEOF\n`);
    expect(q.commands[0]!.redirects[0]!.heredoc).toMatchObject({ body: "rm $X\n", quoted: true });
    expect(q.commands[1]!.words[0]!.literal).toBe("sh");
    expect(q.commands[1]!.pipedFrom).toBe(0);
    const u = await parseBash(`cat <<EOF > f && rm x\nhi $HOME\nEOF\n`);
    const h = u.commands[0]!.redirects.find((r) => r.heredoc)!.heredoc!;
    expect(h.quoted).toBe(false);
    expect(h.parts).toContainEqual({ kind: "var", name: "HOME", quoted: true });
    expect(u.commands[0]!.redirects.some((r) => r.op === ">" && r.target?.literal === "f")).toBe(true);
    expect(u.commands[1]!.words.map((w) => w.literal)).toEqual(["rm", "x"]);
    expect(u.commands[1]!.pipedFrom).toBeNull();
  });

  it("emits assignments, exports, loop variables and scope markers in order", async () => {
    const p = await parseBash(`D=/x; export E=y; (cd /); for i in a b; do :; done; unset D`);
    expect(p.steps.map((s) => s.kind)).toEqual(["assign", "assign", "enter-scope", "command", "leave-scope", "loop-var", "command", "unset"]);
    const exp = p.steps[1]!;
    expect(exp.kind === "assign" && exp.exported).toBe(true);
  });

  it("decodes $'..' and reports what it cannot decode", async () => {
    const p = await parseBash(`$'\\x72\\x6d' $'a\\tb' $'\\q'`);
    const w = p.commands[0]!.words;
    expect(w[0]!.literal).toBe("rm");
    expect(w[1]!.literal).toBe("a\tb");
    expect(w[2]!.parts[0]).toMatchObject({ kind: "dynamic", what: "ansi-c" });
    expect(decodeAnsiC("\\101\\u00e9")).toBe("Aé");
  });

  it("flags syntax errors", async () => {
    expect((await parseBash("rm -rf build &&")).hasError).toBe(true);
    expect((await parseBash("echo ok")).hasError).toBe(false);
  });
});
