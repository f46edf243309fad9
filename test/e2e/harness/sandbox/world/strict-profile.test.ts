/**
 * The strict profile's additions at the world level: unreadable masks (EACCES, not "missing"),
 * .env files found after setup and masked wherever they are, gate processes under the same
 * view with the world read-only.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildBwrapArgs } from "../../../../../harness/sandbox/world/bwrap-args.ts";
import { buildStrictProfile } from "../../../../../kernel/sandbox-profile.ts";
import { createWorld } from "../../../../../harness/sandbox/world/world.ts";

const dir = mkdtempSync(join(tmpdir(), "gatebench-sandbox-world-"));
function script(body: string): string {
  const f = join(dir, `s${Math.random().toString(36).slice(2)}.sh`);
  writeFileSync(f, body);
  return f;
}

describe("buildStrictProfile", () => {
  it("expands ~, splits paths from name globs, rejects roots and paths outside home for writing", () => {
    expect(buildStrictProfile({ writable: ["~/.cache"], masked: ["~/.ssh", "/workspace/secret.json", ".env"], maskStyle: "unreadable" })).toEqual({
      kind: "strict",
      writableHomePaths: ["/home/user/.cache"],
      maskedPaths: ["/home/user/.ssh"],
      maskStyle: "unreadable",
      maskedFiles: ["/home/user/.ssh", "/workspace/secret.json"],
      maskedNames: [".env"],
    });
    expect(() => buildStrictProfile({ writable: ["/etc"] })).toThrow(/under/);
    expect(() => buildStrictProfile({ masked: ["/workspace"] })).toThrow(/whole root/);
    expect(() => buildStrictProfile({ masked: ["~/../x"] })).toThrow(/normalised/);
  });
});

describe("buildBwrapArgs additions", () => {
  const mounts = { workspace: "/T/workspace", home: "/T/home", tmp: "/T/tmp", extra: [{ sandboxPath: "/srv/app", hostDir: "/T/mounts/srv/app" }] };
  const host = { entries: [], maskedFiles: [] };
  it("readOnlyWorld binds every world dir read-only", () => {
    const a = buildBwrapArgs({ mounts, host, command: ["true"], readOnlyWorld: true });
    expect(a).not.toContain("--bind");
    for (const dest of ["/workspace", "/home/user", "/tmp", "/srv/app"])
      expect(a.join(" ")).toContain(
        `--ro-bind ${dest === "/workspace" ? "/T/workspace" : dest === "/home/user" ? "/T/home" : dest === "/tmp" ? "/T/tmp" : "/T/mounts/srv/app"} ${dest}`,
      );
  });
  it("unreadable masks get --perms 0000; masked files need a source and a world root", () => {
    const a = buildBwrapArgs({
      mounts,
      host,
      command: ["true"],
      profile: {
        kind: "strict",
        writableHomePaths: [],
        maskedPaths: ["/home/user/.ssh"],
        maskStyle: "unreadable",
        maskedFiles: ["/srv/app/.env"],
        maskFileSource: "/T/masks/unreadable",
      },
    });
    expect(a.join(" ")).toContain("--perms 0000 --tmpfs /home/user/.ssh --remount-ro /home/user/.ssh");
    expect(a.join(" ")).toContain("--ro-bind /T/masks/unreadable /srv/app/.env");
    expect(() =>
      buildBwrapArgs({
        mounts,
        host,
        command: ["true"],
        profile: { kind: "strict", writableHomePaths: [], maskedPaths: [], maskedFiles: ["/etc/passwd"], maskFileSource: "/x" },
      }),
    ).toThrow(/world root/);
    expect(() =>
      buildBwrapArgs({
        mounts,
        host,
        command: ["true"],
        profile: { kind: "strict", writableHomePaths: [], maskedPaths: [], maskedFiles: ["/workspace/.env"] },
      }),
    ).toThrow(/maskFileSource/);
  });
});

describe("strict world with unreadable masks", () => {
  it("refuses secrets with EACCES, finds .env files after setup, leaves .env.example and symlinks alone", async () => {
    const w = await createWorld({ mounts: ["/srv/app"], profile: buildStrictProfile({ masked: ["~/.ssh", ".env"], maskStyle: "unreadable" }) });
    try {
      const setup = await w.runScript(
        script(
          "mkdir -p ~/.ssh /workspace/a/b /srv/app; echo KEY > ~/.ssh/id_rsa; echo E1 > /workspace/a/b/.env; echo E2 > /srv/app/.env; echo EX > /workspace/.env.example; echo E3 > ~/.ssh/.env; ln -s a/b/.env /workspace/link.env\n",
        ),
      );
      expect(setup.exitCode, setup.stderr).toBe(0);
      const r = await w.exec(
        "for f in ~/.ssh/id_rsa /workspace/a/b/.env /srv/app/.env /workspace/.env.example; do cat $f 2>&1; done; ls ~/.ssh 2>&1; echo x > /workspace/a/b/.env 2>&1; echo ok > /srv/app/other && echo wrote",
      );
      expect(r.stdout).toContain("cat: /home/user/.ssh/id_rsa: Permission denied");
      expect(r.stdout).toContain("cat: /workspace/a/b/.env: Permission denied");
      expect(r.stdout).toContain("cat: /srv/app/.env: Permission denied");
      expect(r.stdout).toContain("EX");
      expect(r.stdout).toContain("ls: cannot open directory '/home/user/.ssh': Permission denied");
      expect(r.stdout).not.toMatch(/KEY|E1|E2/);
      expect(r.stdout).toContain("wrote");
      // The link itself is not masked; its target is.
      expect((await w.exec("cat /workspace/link.env 2>&1")).stdout).toContain("Permission denied");
      // A gate process sees the same masks and cannot write anything.
      const g = await w.runGateProcess(["/bin/bash", "-c", "cat /workspace/a/b/.env; touch /workspace/new; touch /tmp/new; ls /workspace"], "");
      expect(g.stderr).toContain("Permission denied");
      expect(g.stderr).toMatch(/touch: cannot touch '\/workspace\/new': Read-only file system/);
      expect(g.stderr).toMatch(/touch: cannot touch '\/tmp\/new': Read-only file system/);
      expect(g.stdout).toContain("a");
      // The hidden test's view (default profile) still has the secrets.
      expect((await w.runScript(script("cat /workspace/a/b/.env ~/.ssh/id_rsa\n"))).stdout).toBe("E1\nKEY\n");
    } finally {
      await w.close();
    }
  });

  it("gate processes reject binds outside /opt/gatebench/hooks", async () => {
    const w = await createWorld();
    try {
      await expect(w.runGateProcess(["true"], "", { readOnlyBinds: [{ hostPath: "/etc", sandboxPath: "/workspace/etc" }] })).rejects.toThrow(/hooks/);
    } finally {
      await w.close();
    }
  });
});
