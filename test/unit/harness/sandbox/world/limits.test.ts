import { describe, expect, it } from "vitest";
import { DEFAULT_RESOURCE_LIMITS, helperLimitsArg, limitMessage, prlimitArgv } from "../../../../../harness/sandbox/world/limits.ts";
import { buildMeasurerArgs, MEASURED_WORLDS } from "../../../../../harness/sandbox/world/bwrap-args.ts";

describe("world limits", () => {
  it("prlimit sets address space, processes, file size and no core dumps before the command", () => {
    const argv = prlimitArgv({ memoryMb: 256, pids: 64, fileSizeMb: 8, diskMb: 10 }, ["/bin/bash", "-c", "x"]);
    expect(argv).toEqual([
      "/usr/bin/prlimit",
      `--as=${256 * 1024 * 1024}`,
      "--nproc=64",
      `--fsize=${8 * 1024 * 1024}`,
      "--core=0",
      "--",
      "/bin/bash",
      "-c",
      "x",
    ]);
  });

  it("hands the helper the same limits, and names each limit in its message", () => {
    expect(JSON.parse(helperLimitsArg(DEFAULT_RESOURCE_LIMITS).slice("--limits=".length))).toEqual({ memoryMb: 2048, pids: 512, fileSizeMb: 1024 });
    expect(limitMessage("disk", DEFAULT_RESOURCE_LIMITS)).toContain("2048 MB");
    expect(limitMessage("pids", DEFAULT_RESOURCE_LIMITS)).toContain("512");
  });
});

describe("measurer sandbox", () => {
  const argv = buildMeasurerArgs({
    worldsDir: "/t",
    host: { entries: [{ path: "/bin", kind: "symlink", target: "usr/bin" }], maskedFiles: [] },
    helperDir: "/repo/inside",
    command: ["/usr/bin/node", "/opt/gatebench/helper.cjs", "--measurer"],
  });
  const pairs = (flag: string) => argv.flatMap((a, i) => (a === flag ? [`${argv[i + 1]} ${argv[i + 2]}`] : []));

  it("binds the folder of trial dirs read-only, nothing writable, and no OS profile masks", () => {
    expect(pairs("--ro-bind")).toEqual(expect.arrayContaining([`/t ${MEASURED_WORLDS}`]));
    expect(pairs("--ro-bind").filter((p) => p.startsWith("/t "))).toHaveLength(1);
    expect(argv).not.toContain("--bind");
    expect(argv).not.toContain("--tmpfs");
  });

  it("has its own PID namespace, no network, no user namespace, and only CAP_DAC_READ_SEARCH", () => {
    expect(argv).toEqual(expect.arrayContaining(["--unshare-pid", "--unshare-net", "--die-with-parent"]));
    expect(argv).not.toContain("--unshare-all");
    expect(argv).not.toContain("--unshare-user");
    const caps = argv.flatMap((a, i) => (a === "--cap-add" ? [argv[i + 1]] : []));
    expect(caps).toEqual(["CAP_DAC_READ_SEARCH"]);
    expect(argv.indexOf("--cap-drop")).toBeLessThan(argv.indexOf("--cap-add"));
    expect(argv.slice(-3)).toEqual(["/usr/bin/node", "/opt/gatebench/helper.cjs", "--measurer"]);
  });
});

describe("measurer sandbox without root", () => {
  it("gets a user namespace and no capability", () => {
    const argv = buildMeasurerArgs({
      worldsDir: "/t",
      host: { entries: [], maskedFiles: [] },
      helperDir: "/repo/inside",
      command: ["true"],
      privileged: false,
    });
    expect(argv).toContain("--unshare-user");
    expect(argv).toContain("--unshare-pid");
    expect(argv).not.toContain("--cap-add");
  });
});
