import { describe, expect, it } from "vitest";
import { classesWorld } from "../../../../../scripts/fixtures/classes-corpus.ts";
import { decide, kinds } from "./decide.ts";

describe("compressors replace their input", () => {
  it("gzip/bzip2/xz remove the original unless -k or -c; zstd/lz4 keep it unless --rm", async () => {
    expect(
      await kinds([
        "gzip users.csv",
        "gzip -k users.csv",
        "gzip -c users.csv > users.csv.gz",
        "bzip2 words.txt",
        "xz -z data/store.sqlite",
        "zstd users.csv",
        "zstd --rm users.csv",
        "gzip -t archive/site.tar.gz",
        "cat users.csv | gzip > out.gz",
      ]),
    ).toEqual([
      "gzip users.csv -> confirm",
      "gzip -k users.csv -> allow",
      "gzip -c users.csv > users.csv.gz -> allow",
      "bzip2 words.txt -> confirm",
      "xz -z data/store.sqlite -> confirm",
      "zstd users.csv -> allow",
      "zstd --rm users.csv -> confirm",
      "gzip -t archive/site.tar.gz -> allow",
      "cat users.csv | gzip > out.gz -> allow",
    ]);
  });

  it("decompressing with -f writes over an existing output", async () => {
    const env = classesWorld();
    env.addFile("/workspace/report.txt.gz", "gz");
    env.addFile("/workspace/report.txt", "kept\n");
    const d = await decide("gunzip -k -f report.txt.gz", env);
    expect(d.kind).toBe("confirm");
    expect(d.why).toContain("over an existing file");
    expect((await decide("gunzip -k report.txt.gz", env)).kind).toBe("allow");
  });
});

describe("extractors over existing files", () => {
  it("tar -x / unzip -o into a folder with entries may overwrite; a new or empty folder, -k, or unzip without -o keep files", async () => {
    const env = classesWorld();
    env.addDir("/workspace/empty");
    expect(
      await kinds(
        [
          "tar -xzf archive/site.tar.gz",
          "tar -xf archive/site.tar.gz -C src",
          "tar -xf archive/site.tar.gz -C empty",
          "tar -xf archive/site.tar.gz -C fresh",
          "tar -xkf archive/site.tar.gz -C src",
          "tar -xkf archive/site.tar.gz",
          "tar -xOf archive/site.tar.gz",
          "unzip -o vendor.zip",
          "unzip vendor.zip -d src",
          "unzip -o vendor.zip -d fresh",
          "unzip -l vendor.zip",
          "tar -tzf archive/site.tar.gz",
        ],
        env,
      ),
    ).toEqual([
      "tar -xzf archive/site.tar.gz -> confirm",
      "tar -xf archive/site.tar.gz -C src -> confirm",
      "tar -xf archive/site.tar.gz -C empty -> allow",
      "tar -xf archive/site.tar.gz -C fresh -> allow",
      "tar -xkf archive/site.tar.gz -C src -> allow",
      // Into the workspace root even new files may land in protected folders (.git/hooks).
      "tar -xkf archive/site.tar.gz -> confirm",
      "tar -xOf archive/site.tar.gz -> allow",
      "unzip -o vendor.zip -> confirm",
      "unzip vendor.zip -d src -> allow",
      "unzip -o vendor.zip -d fresh -> allow",
      "unzip -l vendor.zip -> allow",
      "tar -tzf archive/site.tar.gz -> allow",
    ]);
  });

  it("an archive listing names exactly the files an extraction replaces", async () => {
    const env = {
      ...classesWorld(),
      runGateProcess: async (argv: string[]) => ({
        exitCode: 0,
        timedOut: false,
        stdout: argv.includes("-t") ? "src/server.ts\nsrc/new.ts\nsrc/\n" : "",
        stderr: "",
      }),
    };
    const d = await decide("tar -xzf archive/site.tar.gz", env);
    expect(d.kind).toBe("confirm");
    expect(d.resources).toContain("/workspace/src/server.ts");
    expect(d.resources).not.toContain("/workspace/src/new.ts");
  });

  it("tar -c over an existing archive replaces it; 7z x -aoa overwrites; 7z l reads", async () => {
    expect(
      await kinds([
        "tar -czf archive/site.tar.gz src",
        "tar -czf new.tgz src",
        "7z x -aoa vendor.zip",
        "7z x vendor.zip -ofresh",
        "7z l vendor.zip",
        "7z a -sdel out.7z src",
      ]),
    ).toEqual([
      "tar -czf archive/site.tar.gz src -> confirm",
      "tar -czf new.tgz src -> allow",
      "7z x -aoa vendor.zip -> confirm",
      "7z x vendor.zip -ofresh -> allow",
      "7z l vendor.zip -> allow",
      "7z a -sdel out.7z src -> confirm",
    ]);
  });

  it("rename moves every matching file", async () => {
    expect((await decide("rename 's/\\.ts$/.js/' src/*.ts")).kind).toBe("confirm");
    expect((await decide("rename -n 's/\\.ts$/.js/' src/*.ts")).kind).toBe("allow");
  });
});

describe("compressors split their command line by their own option table", () => {
  it("gzip -q takes no value: its operand is still replaced", async () => {
    const d = await decide("gzip -q users.csv");
    expect(d.kind).toBe("confirm");
    expect(d.why).toContain("gzip replaces the file with its compressed copy");
    expect((await decide("gzip -q -k users.csv")).kind).toBe("allow");
  });

  it("zstd -o, brotli -o and lz4's second operand name the output: -f over an existing one loses it", async () => {
    const env = classesWorld();
    env.addFile("/workspace/report.zst", "old");
    env.addFile("/workspace/report.lz4", "old");
    env.addFile("/workspace/report.br", "old");
    for (const cmd of ["zstd -f -o report.zst users.csv", "lz4 -f users.csv report.lz4", "brotli -f -o report.br users.csv"]) {
      const d = await decide(cmd, env);
      expect(d.kind, cmd).toBe("confirm");
      expect(d.why, cmd).toContain("over an existing file");
    }
    expect(await kinds(["zstd -o new.zst users.csv", "lz4 users.csv new.lz4", "zstd -f -o new.zst users.csv"], env)).toEqual([
      "zstd -o new.zst users.csv -> allow",
      "lz4 users.csv new.lz4 -> allow",
      "zstd -f -o new.zst users.csv -> allow",
    ]);
  });

  it("an option outside a compressor's table is asked about by name", async () => {
    const d = await decide("gzip -k --frob users.csv");
    expect(d.kind).toBe("confirm");
    expect(d.why).toContain("gzip: option `--frob` is not modelled");
  });

  it("7z asks about a switch it does not model, naming it", async () => {
    const d = await decide("7z x -spf archive/a.7z");
    expect(d.kind).not.toBe("allow");
    expect(d.why).toContain("7z: switch `-spf` is not modelled");
    expect((await decide("7z l -slt archive/a.7z")).kind).toBe("allow");
  });
});
