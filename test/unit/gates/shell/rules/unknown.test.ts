import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COMMAND_RULES } from "../../../../../gates/shell/rules/index.ts";
import { embeddedCommand, looksLikeCode, scanUnknownArgs } from "../../../../../gates/shell/rules/unknown.ts";
import { lit, unversioned } from "../../../../../gates/shell/rules/types.ts";
import { classesWorld } from "../../../../../scripts/fixtures/classes-corpus.ts";
import { decide, expectKinds, kinds } from "./decide.ts";

const KEYWORDS = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "case",
  "esac",
  "while",
  "until",
  "for",
  "in",
  "function",
  "select",
  "time",
  "coproc",
]);
/** A name shell-ast has a rule for (or whose unversioned form it has one for). */
const isProgram = (n: string) => COMMAND_RULES.has(n) || COMMAND_RULES.has(unversioned(n) ?? "");
/** Program names shell-ast has no rule for (nor for their unversioned form). */
const unknownName = fc.stringMatching(/^[a-z][a-z0-9-]{2,12}$/).filter((n) => !isProgram(n) && !KEYWORDS.has(n) && !n.endsWith("-"));
const codeFlag = fc.constantFrom("-e", "-c", "-E", "-r", "--eval", "--exec", "--execute", "--command", "--code", "--query");
const code = fc.constantFrom("remove('data')", "os.remove('x')", "DROP TABLE users", "rm -rf src", "x = 1; y()", '(delete-file "a")', "print 1", "{ wipe }");
/** Plain in-workspace operands: no slash, no leading dot or tilde, no glob, not an option. */
const plainWord = fc.stringMatching(/^[a-z0-9_][a-z0-9_]{0,10}$/);
const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

describe("unknown programs: what they are given", () => {
  it("inline code behind an interpreter-like flag is asked about", async () => {
    const d = await decide(`zorbtool -e "wipe('data')"`);
    expect(d.kind).toBe("confirm");
    expect(d.why).toContain("unknown program zorbtool with inline code");
  });

  it("an eval subcommand with code, --flag=code and bundled -ne are inline code", async () => {
    expect(await kinds(["zorbtool eval 'remove(\"x\")'", "zorbtool --eval='remove_all(\"src\")'", "zorbtool -ne 'print $x'"])).toEqual(
      expectKinds(["zorbtool eval 'remove(\"x\")'", "zorbtool --eval='remove_all(\"src\")'", "zorbtool -ne 'print $x'"], "confirm"),
    );
  });

  it("a plain value after -c or -e is not code (a config file, an environment name)", async () => {
    const cases = ["zorbtool -c config.yaml", "zorbtool -e production", "zorbtool -r deps.txt", "zorbtool --query=name"];
    expect(await kinds(cases)).toEqual(expectKinds(cases, "allow"));
  });

  it("input on stdin is asked about: a pipe, a heredoc, a here-string, a < file", async () => {
    const cases = ["cat data/wipe.sql | zorbsql", "zorbsql <<'EOF'\nDROP TABLE x;\nEOF", "zorbsql <<< 'DROP TABLE x'", "zorbsql < data/wipe.sql"];
    for (const c of cases) {
      const d = await decide(c);
      expect(d.kind, c).toBe("confirm");
      expect(d.why, c).toContain("input on stdin to zorbsql, a program that may apply it");
    }
  });

  it("/dev/null on stdin is no input", async () => {
    expect((await decide("zorbsql < /dev/null")).kind).toBe("allow");
  });

  it("a path outside the workspace is asked about, shown from HOME as ~/", async () => {
    const d = await decide("zorbtool --out ~/Documents/taxes.pdf");
    expect(d.kind).toBe("confirm");
    expect(d.why).toContain("unknown program zorbtool given a path outside the workspace: ~/Documents/taxes.pdf");
    expect(d.resources).toEqual(["/home/user/Documents/taxes.pdf"]);
  });

  it("paths are resolved by the path policy's machinery, not by their spelling", async () => {
    const env = classesWorld();
    env.addLink("/workspace/home-link", "/home/user");
    // `src/../../home/user` climbs out; `home-link/` follows the link; `./src/..` stays inside.
    expect(await kinds(["zorbtool src/../../home/user/notes.txt", "zorbtool home-link/notes.txt", "zorbtool ./src/../README.md"], env)).toEqual([
      "zorbtool src/../../home/user/notes.txt -> confirm",
      "zorbtool home-link/notes.txt -> confirm",
      "zorbtool ./src/../README.md -> allow",
    ]);
  });

  it("option values and key=value operands that hold absolute paths are judged too", async () => {
    expect(await kinds(["zorbtool --prefix=/opt/zorb", "zorbtool of=/dev/sda", "zorbtool --prefix=./build"])).toEqual([
      "zorbtool --prefix=/opt/zorb -> confirm",
      "zorbtool of=/dev/sda -> confirm",
      "zorbtool --prefix=./build -> allow",
    ]);
  });

  it("a secret it could read is denied, as cat would be", async () => {
    expect((await decide("zorbtool ~/.ssh/id_ecdsa")).kind).toBe("deny");
  });

  it("a protected path inside the workspace is asked about, never denied", async () => {
    const d = await decide("zorbtool .git/hooks/pre-commit");
    expect(d.kind).toBe("confirm");
    expect(d.why).toContain("a protected path");
  });

  it("bare words are paths when the cwd lies outside the workspace", async () => {
    expect(await kinds(["zorbtool reset notes", "cd ~ && zorbtool reset notes.txt"])).toEqual([
      "zorbtool reset notes -> allow",
      "cd ~ && zorbtool reset notes.txt -> confirm",
    ]);
  });

  it("URLs and remote specs are not local paths", async () => {
    const cases = ["zorbtool https://downloads.invalid/a/b", "zorbtool user@host:/srv/x", "zorbtool s3://bucket/key"];
    expect(await kinds(cases)).toEqual(expectKinds(cases, "allow"));
  });

  it("a command line it carries (after --, or as its first operand) is analysed like a wrapper's payload", async () => {
    expect(await kinds(["zorbwrap -- rm -rf ~", "zorbwrap rm -rf src", "zorbwrap -q -- git reset --hard", "zorbwrap status"])).toEqual([
      "zorbwrap -- rm -rf ~ -> deny",
      "zorbwrap rm -rf src -> confirm",
      "zorbwrap -q -- git reset --hard -> confirm",
      "zorbwrap status -> allow",
    ]);
  });

  it("a shell function defined on the line is not an unknown program", async () => {
    expect((await decide("show() { cat README.md; }; cat data/fixtures.sql | show")).kind).toBe("allow");
  });

  it("without code, stdin or outside paths it keeps no effect", async () => {
    const cases = ["shellcheck scripts/deploy.sh", "hadolint Dockerfile", "zorbtool build --release", "zorbtool", "protoc --ts_out=src/gen proto/api.proto"];
    expect(await kinds(cases)).toEqual(expectKinds(cases, "allow"));
  });
});

describe("scanUnknownArgs", () => {
  it("finds code flags, path operands and path values", () => {
    const args = ["-v", "--eval", "x(1)", "--out=/tmp/x", "src/a", "plain", "KEY=/etc/y"].map(lit);
    const r = scanUnknownArgs(args, false);
    expect(r.code).toBe("--eval x(1)");
    expect(r.paths.map((p) => p.text)).toEqual(["/tmp/x", "src/a", "/etc/y"]);
    expect(scanUnknownArgs([lit("plain")], true).paths.map((p) => p.text)).toEqual(["plain"]);
  });

  it("looksLikeCode: spaces, brackets, quotes and operators; not names, numbers or key=value", () => {
    for (const c of ["a b", "f()", "x;y", "{a}", "a|b", "$X", "'q'"]) expect(looksLikeCode(c), c).toBe(true);
    for (const c of ["config.yaml", "production", "42", "KEY=value", "a-b_c.d", ""]) expect(looksLikeCode(c), c).toBe(false);
  });

  it("embeddedCommand finds a known program after -- or as the first operand", () => {
    const has = (n: string) => n === "rm" || n === "git";
    expect(embeddedCommand(["-q", "--", "rm", "x"].map(lit), has)).toBe(2);
    expect(embeddedCommand(["-v", "git", "status"].map(lit), has)).toBe(1);
    expect(embeddedCommand(["status", "rm"].map(lit), has)).toBeNull();
  });
});

describe("unknown programs: properties", () => {
  const env = classesWorld();

  it("any unknown program given inline code behind a code flag is never allowed", async () => {
    await fc.assert(
      fc.asyncProperty(unknownName, codeFlag, code, async (name, flag, c) => {
        const d = await decide(`${name} ${flag} ${q(c)}`, env);
        expect(d.kind).not.toBe("allow");
      }),
      { numRuns: 150 },
    );
  });

  it("any unknown program fed something on stdin is never allowed", async () => {
    const feed = fc.constantFrom("cat data/wipe.sql |", "echo x |", "git diff |");
    await fc.assert(
      fc.asyncProperty(unknownName, feed, fc.array(plainWord, { maxLength: 3 }), async (name, f, words) => {
        const d = await decide(`${f} ${name} ${words.join(" ")}`, env);
        expect(d.kind).not.toBe("allow");
      }),
      { numRuns: 100 },
    );
  });

  it("any unknown program given a path under HOME, / or /tmp is never allowed", async () => {
    const outside = fc.constantFrom("~/notes.txt", "~/Documents", "/etc/hosts", "/", "/tmp/scratch/a.txt", "$HOME/projects/other", "../../home/user/x");
    await fc.assert(
      fc.asyncProperty(unknownName, fc.array(plainWord, { maxLength: 2 }), outside, async (name, words, path) => {
        const d = await decide(`${name} ${words.join(" ")} ${path}`, env);
        expect(d.kind).not.toBe("allow");
      }),
      { numRuns: 100 },
    );
  });

  it("any unknown program with only plain in-workspace operands and no stdin stays allowed", async () => {
    const flag = fc.constantFrom("-v", "--verbose", "-q", "--release", "-j4", "--color=never");
    // Its first operand is data, not a program: `tool at x` is a wrapper running `at x`, whose
    // own rule judges it (the example below).
    const operands = fc.array(fc.oneof(plainWord, flag), { maxLength: 5 }).filter((args) => !isProgram(args.find((a) => !a.startsWith("-")) ?? ""));
    await fc.assert(
      fc.asyncProperty(unknownName, operands, async (name, args) => {
        const d = await decide(`${name} ${args.join(" ")}`, env);
        expect(d.kind, d.why).toBe("allow");
      }),
      { numRuns: 150 },
    );
  });

  it("an unknown program whose first operand names a known program is judged as the wrapper of that command", async () => {
    // Once drawn by the property above (seed 939894303): `at` is read as the command `aa0` runs.
    const d = await decide("aa0 at", env);
    expect(d.kind).toBe("confirm");
    expect(d.why).toContain("at schedules");
    expect((await decide("aa0 data at", env)).kind).toBe("allow");
  });

  it("any in-workspace read-only pipeline stays allowed", async () => {
    const file = fc.constantFrom("README.md", "users.csv", "src/server.ts", "docs/manual.md", "words.txt", "config/app.json");
    const stage = fc.oneof(
      file.map((f) => `cat ${f}`),
      file.map((f) => `head -n 5 ${f}`),
      file.map((f) => `grep -n a ${f}`),
      fc.constant("sort"),
      fc.constant("uniq -c"),
      fc.constant("wc -l"),
      fc.constant("tr a-z A-Z"),
      fc.constant("cut -d, -f1"),
      fc.constant("column -t"),
      fc.constant("jq ."),
      fc.constant("sed -n 1,3p"),
      fc.constant("awk '{print $1}'"),
    );
    await fc.assert(
      fc.asyncProperty(file, fc.array(stage, { maxLength: 4 }), async (first, rest) => {
        const line = [`cat ${first}`, ...rest].join(" | ");
        const d = await decide(line, env);
        expect(d.kind, `${line}: ${d.why}`).toBe("allow");
      }),
      { numRuns: 150 },
    );
  });
});
