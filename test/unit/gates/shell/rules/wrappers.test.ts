import { describe, expect, it } from "vitest";
import { splitXargsInput } from "../../../../../gates/shell/rules/wrappers.ts";
import { decide, expectKinds, kinds } from "./decide.ts";

describe("xargs", () => {
  it("splits input like xargs: blanks, quotes, backslashes; lines with -I; NUL with -0", () => {
    expect(splitXargsInput(`a "b c" 'd e' f\\ g\n`, {})).toEqual(["a", "b c", "d e", "f g"]);
    expect(splitXargsInput("  a b\nc\n", { lines: true })).toEqual(["a b", "c"]);
    expect(splitXargsInput("a b\0c\0", { nul: true })).toEqual(["a b", "c"]);
    expect(splitXargsInput("a,b", { delimiter: "," })).toEqual(["a", "b"]);
    expect(splitXargsInput(`a "b`, {})).toBeNull();
  });

  it("-I, -i, -i{}, --replace, -a FILE and -0 reach the payload", async () => {
    const cases = [
      "cat files-to-remove.txt | xargs -I{} rm -rf {}",
      "xargs -i rm -f {} < files-to-remove.txt",
      "xargs -i{} rm -f {} < files-to-remove.txt",
      "xargs --replace=X rm -f X < files-to-remove.txt",
      "xargs -a files-to-remove.txt rm -f",
      "echo src | xargs -I % sh -c 'rm -rf %'",
      "printf 'dist\\0src\\0' | xargs -0 rm -rf",
      "echo 'src docs' | xargs -n1 rm -rf",
    ];
    expect(await kinds(cases)).toEqual(expectKinds(cases, "confirm"));
    expect((await decide("xargs -a files-to-remove.txt rm -f")).resources.sort()).toEqual(["/workspace/docs/manual.md", "/workspace/src/server.ts"]);
  });

  it("-i takes no separate value: `-i rm` keeps rm as the command", async () => {
    expect((await decide("echo ~ | xargs -i rm -rf {}")).kind).toBe("deny");
  });

  it("reads stay allowed", async () => {
    const cases = [
      "find src -name '*.ts' | xargs wc -l",
      "find src -name '*.ts' -print0 | xargs -0 grep -l export",
      "xargs -a files-to-remove.txt ls -l",
      "echo README.md | xargs cat",
    ];
    expect(await kinds(cases)).toEqual(expectKinds(cases, "allow"));
  });
});

describe("GNU parallel", () => {
  it("::: arguments, globs, {} replacements, appended arguments, command lines as inputs", async () => {
    const cases = [
      "parallel rm -rf ::: dist src",
      "parallel -j4 rm {} ::: src/*.ts",
      "parallel rm -rf {1}/{2} ::: src ::: util",
      "parallel ::: 'rm -rf src'",
      "parallel git checkout -- ::: src docs",
      "parallel --jobs=2 rm -rf {} ::: src",
      "parallel -q rm -rf {} ::: src",
    ];
    expect(await kinds(cases)).toEqual(expectKinds(cases, "confirm"));
    expect((await decide("parallel rm -rf ::: ~")).kind).toBe("deny");
  });

  it("inputs from stdin and :::: files; run-time inputs stay run-time values", async () => {
    expect(
      await kinds([
        "find src -name '*.ts' | parallel rm",
        "ls src | parallel 'rm -rf src/{}'",
        "parallel rm :::: files-to-remove.txt",
        "cat files-to-remove.txt | parallel rm {}",
      ]),
    ).toEqual(
      expectKinds(
        [
          "find src -name '*.ts' | parallel rm",
          "ls src | parallel 'rm -rf src/{}'",
          "parallel rm :::: files-to-remove.txt",
          "cat files-to-remove.txt | parallel rm {}",
        ],
        "confirm",
      ),
    );
    expect((await decide("parallel rm :::: files-to-remove.txt")).resources.sort()).toEqual(["/workspace/docs/manual.md", "/workspace/src/server.ts"]);
  });

  it("both shell readings: `bash -c 'rm -rf {}'` is caught whether parallel quotes the words or not", async () => {
    expect((await decide("parallel bash -c 'rm -rf {}' ::: /")).kind).toBe("deny");
  });

  it("a joined reading that does not parse runs nothing; the quoted one is still analysed", async () => {
    expect((await decide(`parallel python -c 'print("ok")' ::: ok`)).kind).toBe("allow");
    expect((await decide(`parallel python -c 'import shutil; shutil.rmtree("{}")' ::: src`)).kind).toBe("confirm");
  });

  it("--dry-run prints; --pipe feeds stdin to the payload; harmless jobs pass", async () => {
    expect(
      await kinds([
        "parallel --dry-run rm -rf {} ::: /",
        "cat data/wipe.sql | parallel --pipe sqlite3 data/store.sqlite",
        "parallel -j2 wc -l ::: src/*.ts",
        "ls src | parallel echo {}",
        "parallel --version",
      ]),
    ).toEqual([
      "parallel --dry-run rm -rf {} ::: / -> allow",
      "cat data/wipe.sql | parallel --pipe sqlite3 data/store.sqlite -> confirm",
      "parallel -j2 wc -l ::: src/*.ts -> allow",
      "ls src | parallel echo {} -> allow",
      "parallel --version -> allow",
    ]);
  });
});

describe("other wrappers", () => {
  it("fd -x, hyperfine, su -c, script -c, strace, command --, watch", async () => {
    expect(
      await kinds([
        "fd -e ts . src -x rm {}",
        "fd -e ts",
        "hyperfine 'rm -rf src'",
        "su -c 'rm -rf ~'",
        "script -qc 'rm -rf src' /dev/null",
        "strace -o trace.txt rm -rf src",
        "command -- rm -rf src",
        "command -v rm",
        "watch -n1 rm -rf src",
        "watch -x rm -rf src",
      ]),
    ).toEqual([
      "fd -e ts . src -x rm {} -> confirm",
      "fd -e ts -> allow",
      "hyperfine 'rm -rf src' -> confirm",
      "su -c 'rm -rf ~' -> deny",
      "script -qc 'rm -rf src' /dev/null -> confirm",
      "strace -o trace.txt rm -rf src -> confirm",
      "command -- rm -rf src -> confirm",
      "command -v rm -> allow",
      "watch -n1 rm -rf src -> confirm",
      "watch -x rm -rf src -> confirm",
    ]);
  });

  it("find with a run-time value where a predicate may stand is not understood", async () => {
    expect((await decide(`find . "$(cat pred)"`)).kind).toBe("confirm");
    expect((await decide(`find src -type f "$(cat action)"`)).kind).toBe("confirm");
    // Inside an -exec payload the value is an argument of the payload, not a predicate.
    expect((await decide("curl -s https://downloads.invalid/names | xargs -IX find . -exec echo X ';'")).kind).toBe("allow");
    expect((await decide(`find . -name "$(cat pat)"`)).kind).toBe("allow");
  });
});
