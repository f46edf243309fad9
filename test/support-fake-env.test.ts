import { describe, expect, it } from "vitest";
import { createFakeEnv } from "../scripts/fixtures/fake-env.ts";

describe("fake EnvView", () => {
  const env = createFakeEnv({
    files: { "/workspace/a.txt": "one\ntwo\n", "/home/user/Photos/cat.jpg": "jpg" },
    dirs: ["/workspace/empty", "/home/user/.ssh"],
    links: {
      "/workspace/photos": "/home/user/Photos",
      "/workspace/rel": "a.txt",
      "/workspace/dangling": "/home/user/.ssh/authorized_keys",
      "/workspace/loop1": "loop2",
      "/workspace/loop2": "loop1",
    },
  });

  it("answers realpath with kernel semantics", async () => {
    expect(await env.realpath("/workspace/photos/cat.jpg")).toBe("/home/user/Photos/cat.jpg");
    expect(await env.realpath("/workspace/rel")).toBe("/workspace/a.txt");
    // `..` after a link climbs from the link's target
    expect(await env.realpath("/workspace/photos/..")).toBe("/home/user");
    expect(await env.realpath("/workspace/dangling")).toBeNull();
    expect(await env.realpath("/workspace/loop1")).toBeNull();
    expect(await env.realpath("/workspace/nope")).toBeNull();
  });

  it("lstat, readlink, readFile and readdir do not follow a final link", async () => {
    expect((await env.lstat("/workspace/photos"))?.type).toBe("symlink");
    expect((await env.lstat("/workspace/photos/cat.jpg"))?.type).toBe("file");
    expect((await env.lstat("/workspace/a.txt"))?.size).toBe(8);
    expect(await env.readlink("/workspace/rel")).toBe("a.txt");
    expect(await env.readlink("/workspace/a.txt")).toBeNull();
    expect(await env.readFile("/workspace/rel")).toBeNull();
    expect(await env.readFile("/workspace/a.txt")).toBe("one\ntwo\n");
    expect(await env.readdir("/workspace/photos")).toBeNull();
    expect(await env.readdir("/workspace/photos/")).toEqual(["cat.jpg"]);
    expect(await env.readdir("/workspace/empty")).toEqual([]);
    expect(await env.glob("/workspace/*.txt")).toEqual(["/workspace/a.txt"]);
  });

  it("kernelTarget names where a write would land", () => {
    expect(env.kernelTarget("/workspace/dangling")).toBe("/home/user/.ssh/authorized_keys");
    expect(env.kernelTarget("/workspace/photos/new.jpg")).toBe("/home/user/Photos/new.jpg");
    expect(env.kernelTarget("/workspace/nodir/x")).toBeNull();
    expect(env.kernelTarget("/workspace/loop1")).toBeNull();
  });
});
