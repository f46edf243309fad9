/** The fake world the shell-ast corpus (corpus.yaml) and benchmark run against. */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { createFakeEnv, type FakeEnv } from "../../test/support/fake-env.ts";

export interface CorpusEntry {
  cmd: string;
  expect: "allow" | "confirm" | "deny";
  code?: string;
  note: string;
}

export function loadCorpus(): CorpusEntry[] {
  const raw = parse(readFileSync(new URL("./corpus.yaml", import.meta.url), "utf8")) as unknown;
  if (!Array.isArray(raw)) throw new Error("corpus.yaml: expected a list");
  return raw.map((e, i) => {
    const entry = e as Partial<CorpusEntry>;
    if (typeof entry.cmd !== "string" || !["allow", "confirm", "deny"].includes(String(entry.expect))) throw new Error(`corpus.yaml: entry ${i}: cmd and expect (allow|confirm|deny) required`);
    return entry as CorpusEntry;
  });
}

export function corpusWorld(): FakeEnv {
  return createFakeEnv({
    files: {
      "/workspace/README.md": "# demo\n",
      "/workspace/.env": "API_KEY=secret\n",
      "/workspace/.env.example": "API_KEY=\n",
      "/workspace/.envrc": "use node\n",
      "/workspace/my.environment.md": "notes\n",
      "/workspace/notes.md": "todo\n",
      "/workspace/list.txt": "build\n",
      "/workspace/src/app.ts": "export const app = 1;\n",
      "/workspace/src/util.ts": "export const util = 2;\n",
      "/workspace/tests/a.test.ts": "test\n",
      "/workspace/build/out.js": "compiled\n",
      "/workspace/logs/a.log": "a\n",
      "/workspace/logs/b.log": "b\n",
      "/workspace/data/backup.sql": "INSERT ...\n",
      "/workspace/package.json": JSON.stringify({ scripts: { test: "vitest run", clean: "rm -rf build", nuke: "rm -rf ~" } }),
      "/workspace/Makefile": "clean:\n\trm -rf build\n",
      "/workspace/scripts/clean.sh": "#!/bin/sh\nrm -rf build\n",
      "/workspace/scripts/evil.sh": "#!/bin/bash\nrm -rf ~/\n",
      "/workspace/scripts/check.sh": "#!/bin/bash\nset -e\ngrep -r TODO src | wc -l\n",
      "/workspace/scripts/tool.py": "import json\nprint(json.dumps({'ok': True}))\n",
      "/workspace/.git/HEAD": "ref: refs/heads/main\n",
      "/workspace/.git/hooks/pre-commit": "#!/bin/sh\n",
      "/workspace/~/keep.txt": "literal tilde dir\n",
      "/workspace/${LOCALAPPDATA}/x.txt": "literal var dir\n",
      "/home/user/.ssh/id_rsa": "PRIVATE\n",
      "/home/user/.ssh/authorized_keys": "ssh-rsa\n",
      "/home/user/.aws/credentials": "[default]\n",
      "/home/user/.bashrc": "export PS1=x\n",
      "/home/user/notes.txt": "personal\n",
      "/home/user/Photos/cat.jpg": "jpg\n",
      "/tmp/cache/x.tmp": "tmp\n",
    },
    dirs: ["/workspace/empty", "/workspace/node_modules"],
    links: { "/workspace/photos": "/home/user" },
  });
}
