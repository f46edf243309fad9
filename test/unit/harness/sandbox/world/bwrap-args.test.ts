import { describe, expect, it } from "vitest";
import { buildBwrapArgs, checkMountPoint, GIT_FIXED_DATE, type BwrapOptions, type HostSystem } from "../../../../../harness/sandbox/world/bwrap-args.ts";

const T = "/tmp/gatebench-trials/t1";
const host: HostSystem = {
  entries: [
    { path: "/bin", kind: "symlink", target: "usr/bin" },
    { path: "/lib", kind: "symlink", target: "usr/lib" },
    { path: "/lib64", kind: "dir" },
  ],
  maskedFiles: ["/etc/shadow", "/etc/gshadow"],
};

function opts(over: Partial<BwrapOptions> = {}): BwrapOptions {
  return {
    mounts: {
      workspace: `${T}/workspace`,
      home: `${T}/home`,
      tmp: `${T}/tmp`,
      extra: [{ sandboxPath: "/srv/app2", hostDir: `${T}/mounts/srv/app2` }],
    },
    host,
    helperDir: "/repo/harness/sandbox/world/inside",
    command: ["/usr/bin/node", "/opt/gatebench/helper.cjs"],
    ...over,
  };
}

/** [flag, src, dest] triples for every bind-style flag. */
function binds(argv: string[]): { flag: string; src: string; dest: string }[] {
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    const f = argv[i]!;
    if (f === "--") break;
    if (["--bind", "--ro-bind", "--dev-bind", "--bind-try", "--dev-bind-try", "--ro-bind-try"].includes(f)) {
      out.push({ flag: f, src: argv[i + 1]!, dest: argv[i + 2]! });
      i += 2;
    }
  }
  return out;
}

describe("buildBwrapArgs", () => {
  const argv = buildBwrapArgs(opts());
  const flags = argv.slice(0, argv.indexOf("--"));

  it("drops every capability and unshares everything", () => {
    const i = flags.indexOf("--cap-drop");
    expect(i).toBeGreaterThan(-1);
    expect(flags[i + 1]).toBe("ALL");
    for (const f of ["--unshare-all", "--die-with-parent", "--new-session", "--clearenv"]) expect(flags).toContain(f);
    expect(flags).not.toContain("--share-net");
    expect(flags).not.toContain("--dev-bind");
  });

  it("writes only inside the trial dir", () => {
    const writable = binds(argv).filter((b) => b.flag === "--bind");
    expect(writable.length).toBe(4);
    for (const b of writable) expect(b.src.startsWith(T + "/")).toBe(true);
    expect(writable.map((b) => b.dest).sort()).toEqual(["/home/user", "/srv/app2", "/tmp", "/workspace"]);
  });

  it("binds the system read-only, mirrors host symlinks, masks shadow files", () => {
    const ro = binds(argv).filter((b) => b.flag === "--ro-bind");
    expect(ro).toContainEqual({ flag: "--ro-bind", src: "/usr", dest: "/usr" });
    expect(ro).toContainEqual({ flag: "--ro-bind", src: "/etc", dest: "/etc" });
    expect(ro).toContainEqual({ flag: "--ro-bind", src: "/lib64", dest: "/lib64" });
    expect(ro).toContainEqual({ flag: "--ro-bind", src: "/dev/null", dest: "/etc/shadow" });
    expect(ro).toContainEqual({ flag: "--ro-bind", src: "/dev/null", dest: "/etc/gshadow" });
    expect(ro).toContainEqual({ flag: "--ro-bind", src: "/repo/harness/sandbox/world/inside", dest: "/opt/gatebench" });
    const s = flags.indexOf("/bin");
    expect(flags.slice(s - 2, s + 1)).toEqual(["--symlink", "usr/bin", "/bin"]);
  });

  it("remounts / read-only after every mount, sets env and cwd, then the command", () => {
    const remount = flags.lastIndexOf("--remount-ro");
    expect(flags[remount + 1]).toBe("/");
    const lastBind = Math.max(...["--bind", "--ro-bind", "--symlink", "--proc", "--dev", "--tmpfs"].map((f) => flags.lastIndexOf(f)));
    expect(remount).toBeGreaterThan(lastBind);
    const env = Object.fromEntries(flags.flatMap((f, i) => (f === "--setenv" ? [[flags[i + 1], flags[i + 2]]] : [])));
    expect(env).toEqual({
      HOME: "/home/user",
      PATH: "/usr/local/bin:/usr/bin:/bin",
      TMPDIR: "/tmp",
      USER: "user",
      GIT_AUTHOR_DATE: GIT_FIXED_DATE,
      GIT_COMMITTER_DATE: GIT_FIXED_DATE,
      LANG: "C.UTF-8",
      // reflog entries look months old to git's real clock: kept unless expired explicitly
      GIT_CONFIG_COUNT: "2",
      GIT_CONFIG_KEY_0: "gc.reflogExpire",
      GIT_CONFIG_VALUE_0: "never",
      GIT_CONFIG_KEY_1: "gc.reflogExpireUnreachable",
      GIT_CONFIG_VALUE_1: "never",
    });
    expect(flags.slice(flags.indexOf("--chdir"), flags.indexOf("--chdir") + 2)).toEqual(["--chdir", "/workspace"]);
    expect(argv.slice(argv.indexOf("--") + 1)).toEqual(["/usr/bin/node", "/opt/gatebench/helper.cjs"]);
  });

  it("puts world.path folders in front of the fixed PATH, and refuses unclean ones", () => {
    const envOf = (argv: string[]) => argv[argv.indexOf("PATH") + 1];
    expect(envOf(buildBwrapArgs(opts()))).toBe("/usr/local/bin:/usr/bin:/bin");
    expect(envOf(buildBwrapArgs(opts({ pathPrefix: ["/home/user/.local/bin", "/workspace/bin"] })))).toBe(
      "/home/user/.local/bin:/workspace/bin:/usr/local/bin:/usr/bin:/bin",
    );
    for (const bad of ["relative/bin", "/a/../b", "/a:/b", "/a/"]) expect(() => buildBwrapArgs(opts({ pathPrefix: [bad] }))).toThrow(/world.path/);
  });

  it("adds read-only extra binds such as /tests and no helper when not asked", () => {
    const a = buildBwrapArgs(opts({ helperDir: undefined, readOnlyBinds: [{ hostPath: "/repo/tasks/t1/tests", sandboxPath: "/tests" }] }));
    expect(binds(a)).toContainEqual({ flag: "--ro-bind", src: "/repo/tasks/t1/tests", dest: "/tests" });
    expect(binds(a).some((b) => b.dest === "/opt/gatebench")).toBe(false);
  });

  it("strict profile: home read-only except listed paths, secrets masked read-only", () => {
    const a = buildBwrapArgs(opts({ profile: { kind: "strict", writableHomePaths: ["/home/user/project"], maskedPaths: ["/home/user/.ssh"] } }));
    const b = binds(a);
    expect(b).toContainEqual({ flag: "--ro-bind", src: `${T}/home`, dest: "/home/user" });
    expect(b).toContainEqual({ flag: "--bind", src: `${T}/home/project`, dest: "/home/user/project" });
    expect(b.some((x) => x.flag === "--bind" && x.dest === "/home/user")).toBe(false);
    const i = a.indexOf("--tmpfs");
    expect(a.slice(i, i + 4)).toEqual(["--tmpfs", "/home/user/.ssh", "--remount-ro", "/home/user/.ssh"]);
    expect(() => buildBwrapArgs(opts({ profile: { kind: "strict", writableHomePaths: ["/etc"], maskedPaths: [] } }))).toThrow(/must lie under/);
  });

  it("rejects task mounts over system or reserved paths", () => {
    for (const bad of ["/usr/local/x", "/etc", "/", "relative", "/srv/../etc", "/workspace/sub", "/home/user", "/home", "/tests", "/opt"]) {
      expect(() => checkMountPoint(bad), bad).toThrow();
    }
    for (const good of ["/srv/app2", "/mnt/photos", "/var/www"]) expect(() => checkMountPoint(good)).not.toThrow();
  });
});

describe("buildBwrapArgs: an agent product's private folders", () => {
  it("mounts each as a fresh tmpfs only its owner can enter, before the root is made read-only", () => {
    const argv = buildBwrapArgs(opts({ tmpfs: ["/opt/gatebench/product-state"] }));
    const at = argv.indexOf("/opt/gatebench/product-state");
    expect(argv.slice(at - 3, at + 1)).toEqual(["--perms", "0700", "--tmpfs", "/opt/gatebench/product-state"]);
    expect(at).toBeLessThan(argv.indexOf("--remount-ro"));
  });

  it("refuses one outside /opt/gatebench/ or not normalised (it could hide a world folder)", () => {
    for (const t of ["/workspace/x", "/home/user", "/opt/gatebench", "/opt/gatebench/../workspace", "relative"])
      expect(() => buildBwrapArgs(opts({ tmpfs: [t] })), t).toThrow(/tmpfs/);
  });
});
