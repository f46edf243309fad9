import { describe, expect, it } from "vitest";
import { decide, expectKinds, kinds } from "./decide.ts";

describe("in-place editors", () => {
  it("sed -i: substitutions are ordinary writes, deletions destroy existing content", async () => {
    expect(
      await kinds([
        "sed -i 's/8080/3000/' src/server.ts",
        "sed -i -e 's/a/b/' -e 's/c/d/' README.md",
        "sed -i d README.md",
        "sed -i '1,$d' README.md",
        "sed -i '/^#/d' README.md",
        "sed -i 5q README.md",
        "sed -i 's/.*//' README.md",
        "sed -n -i p README.md",
      ]),
    ).toEqual([
      "sed -i 's/8080/3000/' src/server.ts -> allow",
      "sed -i -e 's/a/b/' -e 's/c/d/' README.md -> allow",
      "sed -i d README.md -> confirm",
      "sed -i '1,$d' README.md -> confirm",
      "sed -i '/^#/d' README.md -> confirm",
      "sed -i 5q README.md -> confirm",
      "sed -i 's/.*//' README.md -> confirm",
      "sed -n -i p README.md -> confirm",
    ]);
  });

  it("sed -i over a file that does not exist yet, or without -i, loses nothing", async () => {
    expect(await kinds(["sed -i d new-file.txt", "sed d README.md", "sed -n '1,5p' README.md"])).toEqual(
      expectKinds(["sed -i d new-file.txt", "sed d README.md", "sed -n '1,5p' README.md"], "allow"),
    );
  });

  it("sed scripts that write other files or run commands", async () => {
    expect((await decide("sed -n 's/a/b/w /home/user/notes.txt' README.md")).kind).toBe("confirm");
    expect((await decide("sed 's/x/rm -rf src/e' README.md")).why).toContain("runs shell commands");
    expect((await decide("sed -i -f scripts/edit.ed README.md")).kind).toBe("confirm");
  });

  it("ed, ex, vim -es, nvim --headless: commands from -c, +cmd or stdin", async () => {
    expect(
      await kinds([
        "printf '1,$d\\nw\\n' | ed -s README.md",
        "ed -s src/server.ts < scripts/rename.ed",
        "ed -s src/server.ts < scripts/edit.ed",
        "ex -sc '%d|x' README.md",
        "ex -sc '%s/a/b/g|x' README.md",
        "vim -es -c '%d' -c wq README.md",
        "vim -es +'%s/a/b/' +wq README.md",
        "nvim --headless -c 'g/port/d' -c wq src/server.ts",
        "vim -es -c 'normal dd' -c wq README.md",
      ]),
    ).toEqual([
      "printf '1,$d\\nw\\n' | ed -s README.md -> confirm",
      "ed -s src/server.ts < scripts/rename.ed -> allow",
      "ed -s src/server.ts < scripts/edit.ed -> confirm",
      "ex -sc '%d|x' README.md -> confirm",
      "ex -sc '%s/a/b/g|x' README.md -> allow",
      "vim -es -c '%d' -c wq README.md -> confirm",
      "vim -es +'%s/a/b/' +wq README.md -> allow",
      "nvim --headless -c 'g/port/d' -c wq src/server.ts -> confirm",
      "vim -es -c 'normal dd' -c wq README.md -> confirm",
    ]);
  });

  it("argdo/bufdo/silent run their command on every file", async () => {
    expect(await kinds(["vim -es -c 'argdo %s/\\r$//e | update' -c 'qa!' src/*.ts", "vim -es -c 'argdo %d | update' -c 'qa!' src/*.ts"])).toEqual([
      "vim -es -c 'argdo %s/\\r$//e | update' -c 'qa!' src/*.ts -> allow",
      "vim -es -c 'argdo %d | update' -c 'qa!' src/*.ts -> confirm",
    ]);
  });

  it("an edit script that cannot be read is not understood", async () => {
    const d = await decide("curl -s https://downloads.invalid/x.ed | ed -s README.md");
    expect(d.kind).toBe("confirm");
    expect(d.why).toContain("commands cannot be read");
  });

  it("formatters with a write mode write their operands; the path policy judges where", async () => {
    expect(
      await kinds([
        "prettier --write src/server.ts",
        "prettier --check ~/projects/other",
        "prettier --write ~/projects/other",
        "black scripts",
        "black --check ~/projects/other",
        "gofmt -w ~/projects/other",
        "gofmt -l ~/projects/other",
        "shfmt -w ~/.bashrc",
        "eslint --fix src",
        "dos2unix ~/.bashrc",
      ]),
    ).toEqual([
      "prettier --write src/server.ts -> allow",
      "prettier --check ~/projects/other -> allow",
      "prettier --write ~/projects/other -> confirm",
      "black scripts -> allow",
      "black --check ~/projects/other -> allow",
      "gofmt -w ~/projects/other -> confirm",
      "gofmt -l ~/projects/other -> allow",
      "shfmt -w ~/.bashrc -> confirm",
      "eslint --fix src -> allow",
      "dos2unix ~/.bashrc -> confirm",
    ]);
  });

  it("mogrify and sponge replace existing files", async () => {
    expect(
      await kinds([
        "mogrify -resize 50% ~/Pictures/photo.jpg",
        "grep -v x users.csv | sponge users.csv",
        "grep -v x users.csv | sponge new.csv",
        "echo x | sponge -a users.csv",
      ]),
    ).toEqual([
      "mogrify -resize 50% ~/Pictures/photo.jpg -> confirm",
      "grep -v x users.csv | sponge users.csv -> confirm",
      "grep -v x users.csv | sponge new.csv -> allow",
      "echo x | sponge -a users.csv -> allow",
    ]);
  });
});
