import { describe, expect, it } from "vitest";
import { INTERPRETERS } from "../../../../../gates/shell/rules/interpreters.ts";
import { COMMAND_RULES } from "../../../../../gates/shell/rules/index.ts";
import { createFakeEnv } from "../../../../../scripts/fixtures/fake-env.ts";
import { decide, expectKinds, kinds } from "./decide.ts";

describe("interpreter catalogue", () => {
  it("every catalogued program has a rule", () => {
    for (const spec of INTERPRETERS) for (const n of spec.names) expect(COMMAND_RULES.has(n), n).toBe(true);
  });

  it("version suffixes find the interpreter's rule", async () => {
    const cases = [
      `python3.11 -c 'import shutil; shutil.rmtree("src")'`,
      `node20 -e 'require("fs").rmSync("src", { recursive: true })'`,
      `ruby3.2 -e 'require "fileutils"; FileUtils.rm_rf("src")'`,
      `lua5.4 -e 'os.remove("README.md")'`,
      `php8.2 -r 'unlink("README.md");'`,
      `perl5.36 -e 'unlink "README.md"'`,
      `julia1.10 -e 'rm("src"; recursive=true)'`,
    ];
    expect(await kinds(cases)).toEqual(expectKinds(cases, "confirm"));
    expect((await decide("python3.12 -c 'print(1)'")).kind).toBe("allow");
  });

  it("scanned languages: deletions and writes of named paths, harmless code allowed", async () => {
    expect(
      await kinds([
        `lua -e 'os.remove("README.md")'`,
        `Rscript -e 'unlink("data", recursive = TRUE)'`,
        `julia -e 'rm("src")'`,
        `lua -e 'print(1)'`,
        `Rscript -e 'summary(c(1, 2))'`,
        `julia -e 'println(1)'`,
      ]),
    ).toEqual([
      `lua -e 'os.remove("README.md")' -> confirm`,
      `Rscript -e 'unlink("data", recursive = TRUE)' -> confirm`,
      `julia -e 'rm("src")' -> confirm`,
      `lua -e 'print(1)' -> allow`,
      `Rscript -e 'summary(c(1, 2))' -> allow`,
      `julia -e 'println(1)' -> allow`,
    ]);
  });

  it("languages the gate does not read are not understood, whatever the code says", async () => {
    for (const c of [
      `pwsh -c 'Get-Date'`,
      `groovy -e 'println 1'`,
      `elixir -e 'IO.puts 1'`,
      `osascript -e 'beep'`,
      `emacs --batch --eval '(message "hi")'`,
      `crystal eval 'puts 1'`,
    ]) {
      const d = await decide(c);
      expect(d.kind, c).toBe("confirm");
      expect(d.why, c).toContain("which the gate does not read");
    }
  });

  it("deno eval, bun -e, tsx -e and ts-node -e are node code", async () => {
    expect(
      await kinds([
        `deno eval 'Deno.removeSync("src", { recursive: true })'`,
        `bun -e 'require("fs").rmSync("src", { recursive: true })'`,
        `tsx -e 'require("fs").unlinkSync("README.md")'`,
        `ts-node -e 'console.log(1)'`,
        `deno eval 'console.log(1)'`,
        `bun -e 'console.log(1)'`,
      ]),
    ).toEqual([
      `deno eval 'Deno.removeSync("src", { recursive: true })' -> confirm`,
      `bun -e 'require("fs").rmSync("src", { recursive: true })' -> confirm`,
      `tsx -e 'require("fs").unlinkSync("README.md")' -> confirm`,
      `ts-node -e 'console.log(1)' -> allow`,
      `deno eval 'console.log(1)' -> allow`,
      `bun -e 'console.log(1)' -> allow`,
    ]);
  });

  it("bundled -pe and -ne take the next argument as code", async () => {
    expect(await kinds([`node -pe '1 + 1'`, `node -pe 'require("fs").rmSync("src", { recursive: true })'`])).toEqual([
      `node -pe '1 + 1' -> allow`,
      `node -pe 'require("fs").rmSync("src", { recursive: true })' -> confirm`,
    ]);
  });

  it("module names are not paths (require('fs') names no file)", async () => {
    const d = await decide(`node -e 'require("fs").rmSync("dist", { recursive: true })'`);
    expect(d.resources).toEqual(["/workspace/dist"]);
  });

  it("a whole-file write over an existing file is destructive; a new file is an ordinary write", async () => {
    expect(
      await kinds([
        `node -e "require('fs').writeFileSync('README.md', '')"`,
        `ruby -e 'File.write("config/app.json", "")'`,
        `perl -e 'open(my $f, ">", "README.md"); close $f'`,
        `python3 -c 'open("out.txt", "w").write("x")'`,
        `python3 -c 'open("README.md", "a").write("x")'`,
      ]),
    ).toEqual([
      `node -e "require('fs').writeFileSync('README.md', '')" -> confirm`,
      `ruby -e 'File.write("config/app.json", "")' -> confirm`,
      `perl -e 'open(my $f, ">", "README.md"); close $f' -> confirm`,
      `python3 -c 'open("out.txt", "w").write("x")' -> allow`,
      `python3 -c 'open("README.md", "a").write("x")' -> allow`,
    ]);
  });

  it("a read-modify-write of the same file is an edit; the write's own target decides, not every literal", async () => {
    const rmw =
      'python3 - <<\'EOF\'\nimport json\np = "config/app.json"\nd = json.load(open(p))\nd["debug"] = True\nwith open(p, "w") as f:\n    json.dump(d, f)\nEOF';
    expect(
      await kinds([
        rmw,
        `node -e "const fs = require('fs'); fs.writeFileSync('out.json', fs.readFileSync('package.json', 'utf8'))"`,
        `node -e "const fs = require('fs'); fs.writeFileSync('README.md', fs.readFileSync('docs/manual.md', 'utf8'))"`,
      ]),
    ).toEqual([
      `${rmw} -> allow`,
      `node -e "const fs = require('fs'); fs.writeFileSync('out.json', fs.readFileSync('package.json', 'utf8'))" -> allow`,
      `node -e "const fs = require('fs'); fs.writeFileSync('README.md', fs.readFileSync('docs/manual.md', 'utf8'))" -> confirm`,
    ]);
  });

  it("perl -pi: substitutions keep the content, anything else may drop lines", async () => {
    expect(
      await kinds([
        `perl -pi -e 's/port/PORT/g' src/server.ts`,
        `perl -i -pe 'tr/a-z/A-Z/' README.md`,
        `perl -pi -e '$_ = ""' README.md`,
        `perl -i -ne 'print if /port/' src/server.ts`,
        `perl -0777 -pi -e 's/.*//s' README.md`,
      ]),
    ).toEqual([
      `perl -pi -e 's/port/PORT/g' src/server.ts -> allow`,
      `perl -i -pe 'tr/a-z/A-Z/' README.md -> allow`,
      `perl -pi -e '$_ = ""' README.md -> confirm`,
      `perl -i -ne 'print if /port/' src/server.ts -> confirm`,
      `perl -0777 -pi -e 's/.*//s' README.md -> confirm`,
    ]);
  });

  it("-i.bak is a backup suffix and -MModule an attached value, not code flags", async () => {
    expect((await decide(`perl -i.bak -pe 's/a/b/' README.md`)).kind).toBe("allow");
    expect((await decide(`perl -MFile::Path=remove_tree -e 'remove_tree("src")'`)).kind).toBe("confirm");
  });

  it("code from stdin is scanned; a REPL without input has no effect", async () => {
    expect(await kinds(["python3 - <<'EOF'\nimport shutil\nshutil.rmtree('src')\nEOF", "echo 'os.remove(\"README.md\")' | lua", "python3", "node"])).toEqual([
      "python3 - <<'EOF'\nimport shutil\nshutil.rmtree('src')\nEOF -> confirm",
      `echo 'os.remove("README.md")' | lua -> confirm`,
      "python3 -> allow",
      "node -> allow",
    ]);
  });

  it("a module or loader computed at run time is not understood", async () => {
    expect((await decide(`node --require "$(cat mods.txt)" -e 'console.log(1)'`)).kind).toBe("confirm");
    expect((await decide(`node --require ./setup.js -e 'console.log(1)'`)).kind).toBe("allow");
  });

  it("uv run and uvx hand their payload on; a .py payload runs under python", async () => {
    expect(
      await kinds([
        `uv run python -c 'import shutil; shutil.rmtree("src")'`,
        `uv run --with rich python3 -c 'print(1)'`,
        "uv run scripts/gen.py",
        `uvx --from x tool -e 'wipe()'`,
      ]),
    ).toEqual([
      `uv run python -c 'import shutil; shutil.rmtree("src")' -> confirm`,
      `uv run --with rich python3 -c 'print(1)' -> allow`,
      "uv run scripts/gen.py -> allow",
      `uvx --from x tool -e 'wipe()' -> confirm`,
    ]);
  });

  it("a script run by its shebang uses the catalogue", async () => {
    const { classesWorld } = await import("../../../../../scripts/fixtures/classes-corpus.ts");
    const env = classesWorld();
    env.addFile("/workspace/tools/wipe.lua", '#!/usr/bin/env lua5.4\nos.remove("README.md")\n');
    env.addFile("/workspace/tools/hello.rb", "#!/usr/bin/env ruby\nputs 1\n");
    expect(await kinds(["./tools/wipe.lua", "./tools/hello.rb"], env)).toEqual(["./tools/wipe.lua -> confirm", "./tools/hello.rb -> allow"]);
  });
});

describe("modules the code imports", () => {
  const project = () =>
    createFakeEnv({
      files: {
        "/workspace/check.py": "from blog import db\n\nprint(db.create_post('t', 'b'))\n",
        "/workspace/blog/__init__.py": "",
        "/workspace/blog/db.py": "import sqlite3\n\ndef create_post(t, b):\n    return sqlite3.connect('instance/blog.db')\n",
        "/workspace/blog/views.py": "from .db import create_post\n",
        "/workspace/app/__init__.py": "",
        "/workspace/app/core.py": "from . import text\n\ndef add(items, x):\n    return items + [text.norm(x)]\n",
        "/workspace/app/text.py": "import re\n\ndef norm(s):\n    return re.sub(r'\\s+', ' ', s)\n",
        "/workspace/app/cleanup.py": "import shutil\n\ndef run():\n    shutil.rmtree('src')\n",
        "/workspace/lib/db.js": 'const fs = require("node:fs");\nexports.wipe = () => fs.rmSync("data", { recursive: true });\n',
        "/workspace/lib/util.mjs": "export const twice = (x) => 2 * x;\n",
        "/workspace/loop_a.py": "import loop_b\n",
        "/workspace/src/inventory/__init__.py": "",
        "/workspace/src/inventory/stock.py": "import csv\n\ndef load(p):\n    return list(csv.reader(open(p)))\n",
        "/workspace/src/inventory/purge.py": "import os\nos.remove('stock.csv')\n",
        "/workspace/loop_b.py": "import loop_a\n",
      },
    });

  it("reads the project's own modules, whatever the import's form, and judges what they do", async () => {
    const cases = [
      `python3 -c 'import sys; sys.path.insert(0, "."); from app.core import add; print(add([], "x"))'`,
      `python3 -c 'from app import core, text'`,
      `python3 -c 'import app.core as c, json'`,
      `node -e 'import("./lib/util.mjs").then((m) => console.log(m.twice(2)))'`,
      `python3 loop_a.py`,
      `python3 -c 'import sys; sys.path.insert(0, "src"); import inventory.stock'`,
      `python3 -c 'import sys; sys.path.append("src"); from inventory import stock'`,
      `python3 -c 'import configparser, sys; c = configparser.ConfigParser(); c.read("app.ini")'`,
      `node -e 'for (const u of require("./users.json")) console.log(u.email)'`,
    ];
    expect(await kinds(cases, project())).toEqual(expectKinds(cases, "allow"));
    const harmful = [`python3 -c 'from app.cleanup import run; run()'`, `python3 -c 'import app.cleanup'`, `node -e 'require("./lib/db").wipe()'`];
    expect(await kinds(harmful, project())).toEqual(expectKinds(harmful, "confirm"));
    expect((await decide(`node -e 'require("./lib/db").wipe()'`, project())).why).toContain("/workspace/data");
  });

  it("a script whose module (or the module's own relative import) uses a library the gate does not model is not understood", async () => {
    for (const c of [`python3 check.py`, `python3 -c 'from blog.views import create_post'`]) {
      const d = await decide(c, project());
      expect(d.kind, c).toBe("confirm");
      expect(d.why, c).toContain("module sqlite3");
    }
  });

  it("installed packages, database drivers and modules that cannot be found are not understood; the standard library is read", async () => {
    const unknown = [
      `python3 -c 'import sqlite3; sqlite3.connect("app.db").execute("DROP TABLE t")'`,
      `python3 -c 'import requests'`,
      `python3 -c 'from missing.mod import x'`,
      `python3 -c 'import os; import tarfile'`,
      `node -e 'require("better-sqlite3")("app.db").exec("DELETE FROM t")'`,
      `node -e 'const { Client } = require("@acme/db")'`,
      `node -e 'require("./nowhere")'`,
    ];
    expect(await kinds(unknown, project())).toEqual(expectKinds(unknown, "confirm"));
    const stdlib = [
      `python3 -c 'import os, sys, json; from pathlib import Path; print(os.getcwd())'`,
      `node -e 'const fs = require("node:fs"); const p = require("path"); console.log(fs.readdirSync("."))'`,
    ];
    expect(await kinds(stdlib, project())).toEqual(expectKinds(stdlib, "allow"));
  });
});
