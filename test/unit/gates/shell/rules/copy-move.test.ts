import { describe, expect, it } from "vitest";
import { createFakeEnv } from "../../../../../scripts/fixtures/fake-env.ts";
import { decide } from "./decide.ts";

/** A project with a folder of configuration files and a deployed copy that shares some of their names. */
const world = () =>
  createFakeEnv({
    files: {
      "/workspace/src/app.conf": "new\n",
      "/workspace/src/sub/db.conf": "new\n",
      "/workspace/src/fresh.conf": "new\n",
      "/workspace/site/app.conf": "old\n",
      "/workspace/site/sub/db.conf": "old\n",
      "/workspace/site/keep.txt": "old\n",
      "/workspace/other/readme.txt": "x\n",
      "/workspace/a.conf": "new\n",
      "/workspace/b.conf": "new\n",
      "/workspace/etc/a.conf": "old\n",
    },
    dirs: ["/workspace/empty", "/workspace/copy/src"],
  });

describe("a copy or sync into an existing folder is judged by the files it replaces there", () => {
  it.each([
    ["cp -r src/. site/", ["/workspace/site/app.conf", "/workspace/site/sub/db.conf"]],
    ["rsync -a src/ site/", ["/workspace/site/app.conf", "/workspace/site/sub/db.conf"]],
    ["cp *.conf etc/", ["/workspace/etc/a.conf"]],
  ])("%s asks, naming each replaced file", async (cmd, replaced) => {
    const d = await decide(cmd, world());
    expect(d.kind).toBe("confirm");
    const hits = d.explanation.targets.filter((t) => t.destructive).map((t) => t.path);
    expect(hits.sort()).toEqual(replaced);
  });

  it.each([
    "cp -r src/. empty/",
    "rsync -a src/ empty/",
    "cp -r src copy/",
    "rsync -a other/ site/",
    "cp *.conf empty/",
    "rsync -a --ignore-existing src/ site/",
  ])("%s replaces nothing and is allowed", async (cmd) => {
    expect((await decide(cmd, world())).kind).toBe("allow");
  });
});
