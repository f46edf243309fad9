import { describe, expect, it } from "vitest";
import { spawnCalls } from "../../../../gates/shell/spawns.ts";
import { decide } from "./rules/decide.ts";

describe("spawnCalls: every argument form becomes the command it runs", () => {
  const cases: [Parameters<typeof spawnCalls>[0], string, string][] = [
    ["python", `import subprocess; subprocess.run(['rm', '-rf', 'src'])`, "rm -rf src"],
    ["python", `import subprocess; subprocess.call("rm -rf src", shell=True)`, "rm -rf src"],
    ["python", `from subprocess import run; run(["rm", "-rf", "src"], check=True)`, "rm -rf src"],
    ["python", `import os; os.execvp("rm", ["rm", "-rf", "src"])`, "rm -rf src"],
    ["python", `import os; os.execl("/bin/rm", "rm", "-rf", "src")`, "/bin/rm -rf src"],
    ["python", `import os; os.spawnvp(os.P_WAIT, "rm", ["rm", "-rf", "src"])`, "rm -rf src"],
    ["python", `import os; os.posix_spawnp("rm", ("rm", "-rf", "src"), {})`, "rm -rf src"],
    ["node", `require("child_process").spawnSync("rm", ["-rf", "src"])`, "rm -rf src"],
    ["node", `const cp = require("child_process"); cp.execFileSync("rm", ["-rf", "src"], { stdio: "inherit" })`, "rm -rf src"],
    ["node", `require("child_process").spawn("rm -rf src", { shell: true })`, "rm -rf src"],
    ["node", `Bun.spawnSync(["rm", "-rf", "src"])`, "rm -rf src"],
    ["node", `new Deno.Command("rm", { args: ["-rf", "src"] }).outputSync()`, "rm -rf src"],
    ["perl", `system("rm", "-rf", "src")`, "rm -rf src"],
    ["perl", `system qw(rm -rf src)`, "rm -rf src"],
    ["perl", `exec "rm", "-rf", "src"`, "rm -rf src"],
    ["ruby", `system("rm", "-rf", "src")`, "rm -rf src"],
    ["ruby", `system "rm", "-rf", "src"`, "rm -rf src"],
    ["ruby", `Process.spawn({"A" => "1"}, "rm", "-rf", "src")`, "rm -rf src"],
    ["ruby", `IO.popen(%w[rm -rf src]).read`, "rm -rf src"],
    ["php", `pcntl_exec("/bin/rm", ["-rf", "src"]);`, "/bin/rm -rf src"],
    ["php", `proc_open(["rm", "-rf", "src"], [], $p);`, "rm -rf src"],
    ["r", `system2("rm", c("-rf", "src"))`, "rm -rf src"],
  ];
  it.each(cases)("%s: %s", (language, code, command) => {
    expect(spawnCalls(language, code)).toEqual({ commands: [command], opaque: [] });
  });

  it("quotes words that a shell would split", () => {
    expect(spawnCalls("python", `subprocess.run(["rm", "-rf", "my dir"])`).commands).toEqual(["rm -rf 'my dir'"]);
  });

  const computed: [Parameters<typeof spawnCalls>[0], string][] = [
    ["python", `import subprocess, sys; subprocess.run(["rm", "-rf", sys.argv[1]])`],
    ["python", `import subprocess; subprocess.run(cmd)`],
    ["python", `import subprocess; subprocess.run([f"rm", f"-rf", f"{x}"])`],
    ["node", `require("child_process").spawnSync(prog, ["-rf", "src"])`],
    ["node", "require('child_process').execFileSync('rm', [`-rf`, `${dir}`])"],
    ["perl", `system("rm", "-rf", $dir)`],
    ["perl", `system "rm", "-rf", "$dir"`],
    ["ruby", `system("rm", "-rf", "#{dir}")`],
    ["php", `pcntl_exec($p, ["-rf", "src"]);`],
  ];
  it.each(computed)("%s: a computed word is opaque: %s", (language, code) => {
    const r = spawnCalls(language, code);
    expect(r.commands).toEqual([]);
    expect(r.opaque.join()).toMatch(/computed at run time|cannot read/);
  });

  it("a method of another object with the same name is not a spawn", () => {
    expect(spawnCalls("python", `import asyncio; asyncio.run(main())`)).toEqual({ commands: [], opaque: [] });
    expect(spawnCalls("ruby", `obj.system("x")`)).toEqual({ commands: [], opaque: [] });
  });
});

describe("shell-ast judges a spawned process as the command it runs", () => {
  const deletes = [
    `python3 -c "import subprocess; subprocess.run(['rm','-rf','src'])"`,
    `python3 -c "import os; os.execvp('rm', ['rm','-rf','src'])"`,
    `node -e "require('child_process').spawnSync('rm',['-rf','src'])"`,
    `perl -e 'system("rm","-rf","src")'`,
    `ruby -e 'system("rm","-rf","src")'`,
    `php -r 'pcntl_exec("/bin/rm", ["-rf", "src"]);'`,
  ];
  it.each(deletes)("%s asks, naming the deletion", async (cmd) => {
    const d = await decide(cmd);
    expect(d.kind).toBe("confirm");
    expect(d.why).toMatch(/deletes \/workspace\/src/);
  });
  it("a read-only spawn stays allowed; an unreadable one is asked about with its reason", async () => {
    expect((await decide(`python3 -c "import subprocess; print(subprocess.check_output(['git','status']))"`)).kind).toBe("allow");
    expect((await decide(`node -e "require('child_process').spawnSync('ls',['-la'])"`)).kind).toBe("allow");
    const d = await decide(`python3 -c "import subprocess, sys; subprocess.run(['rm','-rf', sys.argv[1]])"`);
    expect(d.kind).toBe("confirm");
    expect(d.why).toMatch(/computed at run time/);
  });
});
