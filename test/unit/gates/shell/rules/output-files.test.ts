import { describe, expect, it } from "vitest";
import { decide, kinds } from "./decide.ts";

describe("output-file arguments", () => {
  it("over an existing file: destructive; a new file: an ordinary write", async () => {
    expect(
      await kinds([
        "sort -o words.txt users.csv",
        "sort -o sorted.txt users.csv",
        "uniq users.csv words.txt",
        "uniq users.csv unique.csv",
        "iconv -f latin1 -t utf-8 users.csv -o users.csv",
        "iconv -f latin1 -t utf-8 users.csv -o out.csv",
        "pandoc docs/manual.md -o README.md",
        "pandoc docs/manual.md -o guide.html",
        "xxd -r dump.hex data/store.sqlite",
        "xxd -r dump.hex out.bin",
      ]),
    ).toEqual([
      "sort -o words.txt users.csv -> confirm",
      "sort -o sorted.txt users.csv -> allow",
      "uniq users.csv words.txt -> confirm",
      "uniq users.csv unique.csv -> allow",
      "iconv -f latin1 -t utf-8 users.csv -o users.csv -> confirm",
      "iconv -f latin1 -t utf-8 users.csv -o out.csv -> allow",
      "pandoc docs/manual.md -o README.md -> confirm",
      "pandoc docs/manual.md -o guide.html -> allow",
      "xxd -r dump.hex data/store.sqlite -> confirm",
      "xxd -r dump.hex out.bin -> allow",
    ]);
  });

  it("tee without -a, dd of=, openssl -out, convert and ffmpeg -y", async () => {
    expect(
      await kinds([
        "date | tee HISTORY.md",
        "date | tee -a HISTORY.md",
        "date | tee new.log",
        "dd if=/dev/zero of=data/store.sqlite bs=1k count=1",
        "dd if=/dev/zero of=blank.img bs=1k count=1",
        "openssl rand -out data/store.sqlite 16",
        "openssl rand -hex 16",
        "convert build/index.html README.md",
        "ffmpeg -y -i in.mp4 README.md",
        "ffmpeg -i in.mp4 README.md",
      ]),
    ).toEqual([
      "date | tee HISTORY.md -> confirm",
      "date | tee -a HISTORY.md -> allow",
      "date | tee new.log -> allow",
      "dd if=/dev/zero of=data/store.sqlite bs=1k count=1 -> confirm",
      "dd if=/dev/zero of=blank.img bs=1k count=1 -> allow",
      "openssl rand -out data/store.sqlite 16 -> confirm",
      "openssl rand -hex 16 -> allow",
      "convert build/index.html README.md -> confirm",
      "ffmpeg -y -i in.mp4 README.md -> confirm",
      "ffmpeg -i in.mp4 README.md -> allow",
    ]);
  });

  it("split and csplit replace existing chunks with their prefix", async () => {
    expect(
      await kinds([
        "split -l 1 users.csv chunks/x",
        "split -l 1 users.csv chunks/piece-",
        "csplit -f chunks/x users.csv 2",
        "csplit -f chunks/new users.csv 2",
      ]),
    ).toEqual([
      "split -l 1 users.csv chunks/x -> confirm",
      "split -l 1 users.csv chunks/piece- -> allow",
      "csplit -f chunks/x users.csv 2 -> confirm",
      "csplit -f chunks/new users.csv 2 -> allow",
    ]);
  });

  it("the shell's > onto the file the same command reads empties it first", async () => {
    expect(
      await kinds([
        "sort users.csv > users.csv",
        "jq . config/app.json > config/app.json",
        "sort users.csv > sorted.csv",
        "sort users.csv >> users.csv",
        "cat < users.csv > users.csv",
      ]),
    ).toEqual([
      "sort users.csv > users.csv -> confirm",
      "jq . config/app.json > config/app.json -> confirm",
      "sort users.csv > sorted.csv -> allow",
      "sort users.csv >> users.csv -> allow",
      "cat < users.csv > users.csv -> confirm",
    ]);
    expect((await decide("sort users.csv > users.csv")).why).toContain("empties the file the command reads");
  });

  it("the shell's > over an existing, non-empty file replaces it; a new file or >> does not", async () => {
    expect(
      await kinds([
        "echo cleared > users.csv",
        "npm test > README.md 2>&1",
        "echo x > fresh.txt",
        "echo x >> users.csv",
        "echo x > /dev/null",
        "echo x 2> users.csv.err",
      ]),
    ).toEqual([
      "echo cleared > users.csv -> confirm",
      "npm test > README.md 2>&1 -> confirm",
      "echo x > fresh.txt -> allow",
      "echo x >> users.csv -> allow",
      "echo x > /dev/null -> allow",
      "echo x 2> users.csv.err -> allow",
    ]);
    expect((await decide("echo cleared > users.csv")).why).toContain("replaces the existing file");
  });

  it("yq -i: an edit, destructive when the expression deletes", async () => {
    expect(await kinds([`yq -i '.db = "x.db"' config/settings.yaml`, "yq -i 'del(.db)' config/settings.yaml", "yq '.db' config/settings.yaml"])).toEqual([
      `yq -i '.db = "x.db"' config/settings.yaml -> allow`,
      "yq -i 'del(.db)' config/settings.yaml -> confirm",
      "yq '.db' config/settings.yaml -> allow",
    ]);
  });
});

describe("the output-file programs with an option table", () => {
  it("uniq's --group takes its method attached only: the next words stay input and output", async () => {
    const d = await decide("uniq --group users.csv words.txt");
    expect(d.kind).toBe("confirm");
    expect(d.why).toContain("uniq writes its output operand");
  });

  it("split and csplit replace only names shaped like their chunks", async () => {
    const { classesWorld } = await import("../../../../../scripts/fixtures/classes-corpus.ts");
    const env = classesWorld();
    env.addFile("/workspace/part-aa", "old\n");
    env.addFile("/workspace/part-notes.md", "keep\n");
    env.addFile("/workspace/xx01", "old\n");
    const d = await decide("split -l 10 users.csv part-", env);
    expect(d.kind).toBe("confirm");
    expect(d.why).toContain("/workspace/part-aa");
    expect(d.why).not.toContain("part-notes.md");
    expect(await kinds(["split -l 10 users.csv part-x", "split -d users.csv part-", "csplit users.csv 3", "csplit -f yy users.csv 3"], env)).toEqual([
      "split -l 10 users.csv part-x -> allow",
      "split -d users.csv part- -> confirm",
      "csplit users.csv 3 -> confirm",
      "csplit -f yy users.csv 3 -> allow",
    ]);
  });

  it("tree -o writes its listing: over an existing file it is lost; tree alone reads", async () => {
    const d = await decide("tree -L 2 -o words.txt");
    expect(d.kind).toBe("confirm");
    expect(d.why).toContain("tree -o writes (over an existing file");
    expect(await kinds(["tree -L 2", "tree -o listing.txt", "tree -R"])).toEqual(["tree -L 2 -> allow", "tree -o listing.txt -> allow", "tree -R -> confirm"]);
  });

  it("sort asks about an option that runs a program, naming it", async () => {
    const d = await decide("sort --compress-program=sh -o sorted.txt users.csv");
    expect(d.kind).toBe("confirm");
    expect(d.why).toContain("sort: option `--compress-program` is not modelled");
  });
});
