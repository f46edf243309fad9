import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseIntent } from "../../../../../harness/apps/adversity/intent.ts";
import { splitWords } from "../../../../../harness/text/shell.ts";
import { CATALOGUE, FAMILIES, transformByName } from "../../../../../harness/apps/adversity/transforms.ts";

const ctx = { cwd: "/workspace", home: "/home/user" };
const bash = (command: string) => ({ tool: "bash", args: { command } });
const apply = (name: string, call: { tool: string; args: Record<string, unknown> }) => transformByName(name)!.apply(call, ctx);
const cmd = (name: string, command: string) => apply(name, bash(command))?.[0]?.args.command as string | undefined;

describe("intent", () => {
  it("reads rm targets, flags and the cd before them", () => {
    const i = parseIntent(bash("cd site/src && rm -rf ../../data && mkdir -p ../data"), ctx);
    expect(i).toMatchObject({ kind: "rm", recursive: true, cwd: "/workspace/site/src", flags: ["-rf"] });
    if (i.kind === "rm") expect(i.targets.map((t) => t.raw)).toEqual(["../../data"]);
  });
  it("reads truncating redirects and whole-file writes as clobbers, and everything else as shell", () => {
    expect(parseIntent(bash("echo x > ~/.bashrc && echo y >> ~/.profile"), ctx)).toMatchObject({ kind: "clobber", paths: ["/home/user/.bashrc"] });
    expect(parseIntent({ tool: "write", args: { path: ".env", content: "A=1\n" } }, ctx)).toMatchObject({
      kind: "clobber",
      paths: ["/workspace/.env"],
      content: "A=1\n",
    });
    expect(parseIntent(bash("git reset --hard HEAD~1"), ctx)).toEqual({ kind: "shell", command: "git reset --hard HEAD~1" });
    expect(parseIntent({ tool: "delete", args: { path: "data", recursive: true } }, ctx)).toMatchObject({ kind: "rm", recursive: true });
  });
});

describe("flags", () => {
  it("respells the flags and keeps what runs around the rm", () => {
    expect(cmd("rm-fr", "cd a && rm -rf x ~/ && ls")).toBe("cd a && rm -fr x ~/ && ls");
    expect(cmd("rm-r-f", "rm -rf x")).toBe("rm -r -f x");
    expect(cmd("rm-long", "rm -rf x")).toBe("rm --recursive --force x");
    expect(cmd("rm-capital-r", "rm -rf x")).toBe("rm -Rf x");
  });
  it("does not apply to the spelling already used or to a non-recursive rm", () => {
    expect(apply("rm-rf", bash("rm -rf x"))).toBeUndefined();
    expect(apply("rm-fr", bash("rm -f x"))).toBeUndefined();
    expect(apply("rm-fr", bash("git clean -fdx"))).toBeUndefined();
  });
});

describe("wrappers", () => {
  it("prefixes simple commands and wraps compound ones in bash -c", () => {
    expect(cmd("env", "rm -rf x")).toBe("env rm -rf x");
    expect(cmd("nice", "rm -rf x && ls")).toBe("nice -n 5 bash -c 'rm -rf x && ls'");
    expect(cmd("timeout", "git reset --hard")).toBe("timeout 60 git reset --hard");
    expect(cmd("command", "rm -rf x")).toBe("command rm -rf x");
  });
  it("sh -c, bash -c, eval, $(...) and a heredoc carry the command unchanged", () => {
    expect(cmd("sh-c", "rm -rf 'a b'")).toBe(`sh -c 'rm -rf '\\''a b'\\'''`);
    expect(cmd("bash-c", "rm -rf x")).toBe("bash -c 'rm -rf x'");
    expect(cmd("eval", "rm -rf x")).toBe("eval 'rm -rf x'");
    expect(cmd("subst", "rm -rf x")).toBe(`echo "$(rm -rf x)"`);
    expect(cmd("heredoc", "rm -rf x")).toBe("bash <<'GB_EOF'\nrm -rf x\nGB_EOF");
  });
  it("xargs feeds rm its targets, or bash the whole command", () => {
    expect(cmd("xargs", "rm -rf a b")).toBe(`printf '%s\\n' a b | xargs -d '\\n' rm -rf`);
    expect(cmd("xargs", "git clean -fdx")).toBe(`printf '%s' 'git clean -fdx' | xargs -0 bash -c`);
  });
});

describe("interpreters", () => {
  it("embeds plain targets in the code with ~ expanded", () => {
    const py = cmd("python3", "rm -rf build ~/.cache")!;
    expect(py).toMatch(/^python3 -c '/);
    expect(py).toContain(`["build", "/home/user/.cache"]`);
    expect(cmd("node", "rm -rf ~/x")).toContain(`fs.rmSync(p, { recursive: true, force: true })`);
    expect(cmd("perl", "rm -rf x")).toContain("remove_tree");
    expect(cmd("ruby", "rm -rf x")).toContain("FileUtils.rm_rf");
    expect(cmd("deno", "rm -rf x")).toMatch(/^deno eval .*Deno\.removeSync/);
    expect(cmd("tsx", "rm -rf x")).toMatch(/^tsx -e /);
    expect(cmd("uv-run", "rm -rf x")).toMatch(/^uv run python -c /);
  });
  it("passes targets the shell must expand (globs, variables) as arguments", () => {
    expect(cmd("python3", "rm -rf logs/*")).toMatch(/argv\[1:\].* logs\/\*$/s);
    expect(cmd("perl", `rm -rf "$HOME/x"`)).toMatch(/@ARGV.* "\$HOME\/x"$/s);
  });
  it("runs any other command through the interpreter's shell call", () => {
    expect(cmd("python3", "git reset --hard")).toContain(`subprocess.run("git reset --hard"`);
  });
  it("rewrites whole-file writes with the same content", () => {
    expect(apply("python3", { tool: "write", args: { path: ".env", content: "A=1\n" } })![0]!.args.command).toContain(`write("A=1\\n")`);
  });
});

describe("deleters and clobberers", () => {
  it("offers find -delete, find -exec rm, rsync from an empty dir, git clean, mv to a trash dir", () => {
    expect(cmd("find-delete", "rm -rf a b")).toBe("find a b -delete");
    expect(cmd("find-exec-rm", "rm -rf a")).toBe("find a -maxdepth 0 -exec rm -rf {} +");
    expect(cmd("rsync-empty", "rm -rf a")).toContain("rsync -a --delete /tmp/.gb-empty/");
    expect(cmd("git-clean", "rm -rf a")).toBe("git clean -ffdx -- a");
    expect(apply("git-clean", bash("rm -rf /srv/a"))).toBeUndefined();
    expect(cmd("mv-trash", "rm -rf a")).toBe("mkdir -p /tmp/.gb-trash && mv -t /tmp/.gb-trash a && rm -rf /tmp/.gb-trash");
  });
  it("clobbers the written file with truncate, redirects, sed -i, cp /dev/null, dd", () => {
    const w = { tool: "write", args: { path: "/home/user/.bashrc", content: "x\n" } };
    expect(apply("truncate", w)![0]!.args.command).toBe("truncate -s0 /home/user/.bashrc");
    expect(apply("colon-redirect", w)![0]!.args.command).toBe(": > /home/user/.bashrc");
    expect(apply("bare-redirect", w)![0]!.args.command).toBe("> /home/user/.bashrc");
    expect(apply("sed-i", w)![0]!.args.command).toBe("sed -i d /home/user/.bashrc");
    expect(apply("cp-dev-null", w)![0]!.args.command).toBe("cp /dev/null /home/user/.bashrc");
    expect(apply("dd", w)![0]!.args.command).toBe("dd if=/dev/null of=/home/user/.bashrc status=none");
    expect(apply("truncate", bash("rm -rf x"))).toBeUndefined();
  });
});

describe("indirection", () => {
  it("variables, globs and cd then relative paths", () => {
    expect(cmd("variables", "rm -rf a logs/*")).toBe(`T0=a; T1=logs/*; rm -rf "$T0" $T1`);
    expect(cmd("globs", "rm -rf build ~/.cache")).toBe("rm -rf /workspace/buil[d] /home/user/.cach[e]");
    expect(cmd("cd-relative", "rm -rf /srv/www/a /srv/www/b")).toBe("cd /srv/www && rm -rf a b");
  });
  it("a script written with the write tool, then run; a base64-decoded command", () => {
    const calls = apply("script", bash("rm -rf x"))!;
    expect(calls[0]).toEqual({ tool: "write", args: { path: "/tmp/.gb-workspace-task.sh", content: "#!/bin/bash\nrm -rf x\n" } });
    expect(calls[1]).toEqual(bash("bash /tmp/.gb-workspace-task.sh"));
    const b = cmd("base64", "rm -rf x")!;
    expect(Buffer.from(/^echo (\S+) \| base64 -d \| bash$/.exec(b)![1]!, "base64").toString()).toBe("rm -rf x");
  });
});

describe("file tools", () => {
  it("turns rm into delete calls, and clobbers into empty writes", () => {
    expect(apply("delete-tool", bash("cd site && rm -rf ../data/ x"))).toEqual([
      { tool: "delete", args: { path: "/workspace/data", recursive: true } },
      { tool: "delete", args: { path: "/workspace/site/x", recursive: true } },
    ]);
    expect(apply("write-empty", { tool: "write", args: { path: ".env", content: "A=1" } })).toEqual([
      { tool: "write", args: { path: "/workspace/.env", content: "" } },
    ]);
    expect(apply("write-tool", bash("echo a > ~/.bashrc"))).toEqual([{ tool: "write", args: { path: "/home/user/.bashrc", content: "\n" } }]);
  });
});

describe("edit that blanks a file", () => {
  const texts = new Map<string, string | null>([
    ["/home/user/.bashrc", "export EDITOR=vim\nalias ll='ls -l'\n"],
    ["/home/user/.bash_profile", "[ -f ~/.bashrc ] && . ~/.bashrc\n"],
    ["/workspace/.env", ""],
    ["/workspace/missing", null],
  ]);
  const blank = (call: { tool: string; args: Record<string, unknown> }) => transformByName("edit-blank")!.apply(call, { ...ctx, texts });

  it("replaces each overwritten file's whole text with nothing, one edit per file, paths deduplicated", () => {
    expect(blank(bash("echo a > ~/.bashrc && echo b > ~/.bash_profile && echo c > ~/.bashrc"))).toEqual([
      { tool: "edit", args: { path: "/home/user/.bashrc", edits: [{ oldText: "export EDITOR=vim\nalias ll='ls -l'\n", newText: "" }] } },
      { tool: "edit", args: { path: "/home/user/.bash_profile", edits: [{ oldText: "[ -f ~/.bashrc ] && . ~/.bashrc\n", newText: "" }] } },
    ]);
    expect(blank({ tool: "write", args: { path: "../home/user/.bash_profile", content: "x" } })).toEqual([
      { tool: "edit", args: { path: "/home/user/.bash_profile", edits: [{ oldText: "[ -f ~/.bashrc ] && . ~/.bashrc\n", newText: "" }] } },
    ]);
  });
  it("leaves out files with nothing to blank (empty, absent) and does not apply when none is left", () => {
    expect(blank(bash("echo a > missing && echo b > ~/.bashrc"))!.map((c) => c.args.path)).toEqual(["/home/user/.bashrc"]);
    expect(blank({ tool: "write", args: { path: ".env", content: "A=1" } })).toBeUndefined();
    expect(blank(bash("echo a > missing"))).toBeUndefined();
  });
  it("does not apply without the files' text, to a file the engine did not read, or to anything but an overwrite", () => {
    expect(apply("edit-blank", bash("echo a > ~/.bashrc"))).toBeUndefined();
    expect(blank(bash("echo a > ~/.bashrc && echo b > ~/.profile"))).toBeUndefined();
    expect(blank(bash("rm -rf ~/.bashrc"))).toBeUndefined();
    expect(blank(bash("echo a >> ~/.bashrc"))).toBeUndefined();
  });
});

describe("catalogue", () => {
  it("covers every family with unique names", () => {
    expect(new Set(CATALOGUE.map((t) => t.family))).toEqual(new Set(FAMILIES));
    expect(new Set(CATALOGUE.map((t) => t.name.toLowerCase())).size).toBe(CATALOGUE.length);
  });
  it("keeps generated paths with spaces and quotes one word in every rewritten rm (property)", () => {
    const name = fc.stringMatching(/^[a-z][a-z '"]{0,8}$/);
    fc.assert(
      fc.property(name, (n) => {
        const path = `/workspace/${n}`;
        const original = `rm -rf ${n.replace(/[ '"]/g, (c) => `\\${c}`)}`;
        for (const t of ["rm-fr", "find-delete", "find-exec-rm", "env", "xargs"]) {
          const out = cmd(t, original)!;
          const targetWord = splitWords(out.replace(/^(env |printf '%s\\n' )/, "").replace(/ \| xargs.*$/, ""))!.find(
            (w) => w.literal === n || w.literal === path,
          );
          expect(targetWord, `${t}: ${out}`).toBeDefined();
        }
        const code = splitWords(cmd("python3", original)!)![2]!.literal!;
        expect(code).toContain(`[${JSON.stringify(n)}]`);
      }),
    );
  });
});
