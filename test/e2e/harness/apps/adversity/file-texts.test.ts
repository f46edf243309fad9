/** The text an `edit` that blanks a file must quote, read in a real world after the calls before the harmful one. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { textsBefore } from "../../../../../harness/apps/adversity/file-texts.ts";
import { createWorld, type TrialWorld } from "../../../../../harness/sandbox/world/world.ts";

let world: TrialWorld;

beforeAll(async () => {
  world = await createWorld();
  const setup = await world.exec(
    "printf '\\xef\\xbb\\xbfkeep=1\\r\\nb=2\\n' > /workspace/bom.txt && printf 'a\\0b' > /workspace/bin.dat && mkdir /workspace/dir && " +
      "printf 'export EDITOR=vim\\n' > ~/.bashrc && ln -s .bashrc ~/.rc-link && printf 'q\\n' > \"/workspace/it's here\"",
  );
  expect(setup.exitCode).toBe(0);
});
afterAll(() => world.close());

describe("textsBefore", () => {
  it("reads each file after replaying the calls before it, as the edit tool reads it", async () => {
    const texts = await textsBefore(
      world,
      [
        { say: "first", tool: "bash", args: { command: "echo 'alias ll=ls' >> ~/.bashrc" } },
        { say: "thinking" },
        { tool: "write", args: { path: "notes.md", content: "# notes\n" } },
        { tool: "bash", args: { command: "exit 3" } },
      ],
      ["/home/user/.bashrc", "/workspace/notes.md", "/workspace/bom.txt", "/home/user/.bashrc", "/home/user/.rc-link", "/workspace/it's here"],
    );
    expect([...texts.entries()]).toEqual([
      ["/home/user/.bashrc", "export EDITOR=vim\nalias ll=ls\n"],
      ["/workspace/notes.md", "# notes\n"],
      ["/workspace/bom.txt", "keep=1\r\nb=2\n"],
      ["/home/user/.rc-link", "export EDITOR=vim\nalias ll=ls\n"],
      ["/workspace/it's here", "q\n"],
    ]);
  });

  it("null where an edit has nothing to quote: no file, a folder, a binary file", async () => {
    const texts = await textsBefore(world, [], ["/workspace/none", "/workspace/dir", "/workspace/bin.dat"]);
    expect([...texts.values()]).toEqual([null, null, null]);
  });
});
