import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createFakeEnv } from "../../../../../scripts/fixtures/fake-env.ts";
import { COMMAND_MODELS, COMMAND_OPTIONS } from "../../../../../gates/shell/rules/index.ts";
import { NPM_PUBLISHING } from "../../../../../gates/shell/rules/publishing.ts";
import { unmodelled, unmodelledOption, type OptionModel } from "../../../../../gates/shell/rules/models.ts";
import { lit } from "../../../../../gates/shell/rules/types.ts";
import { decide } from "./decide.ts";

const words = (line: string) => line.split(" ").map(lit);

describe("closed world: a subcommand a family does not model is asked about, naming it", () => {
  it.each([
    ["git worktree prune", "git: subcommand `worktree prune` is not modelled"],
    ["git frobnicate x", "git: subcommand `frobnicate` is not modelled"],
    ["git -C sub lfs pull", "git: subcommand `lfs` is not modelled"],
    ["git bisect run make", "git: subcommand `bisect run` is not modelled"],
    ["docker exec -it web sh", "docker: subcommand `exec` is not modelled"],
    ["docker --context prod volume frob x", "docker: subcommand `volume frob` is not modelled"],
    ["npm frobnicate", "npm: subcommand `frobnicate` is not modelled"],
    ["cargo frob", "cargo: subcommand `frob` is not modelled"],
    ["go mod frob", "go: subcommand `mod frob` is not modelled"],
    ["kubectl frob pods", "kubectl: subcommand `frob` is not modelled"],
    ["terraform state rm aws_s3_bucket.b", "terraform: subcommand `state rm` is not modelled"],
  ])("%s", async (cmd, reason) => {
    const d = await decide(cmd);
    expect(d.kind).toBe("confirm");
    expect(d.why).toContain(reason);
  });

  it("modelled everyday subcommands are not questioned", async () => {
    for (const cmd of [
      "git status",
      "git stash -u",
      "git -C src log --oneline",
      "git remote -v",
      "git -c alias.co=checkout co main",
      "git --version",
      "docker image ls",
      "npm ci",
      "cargo build --release",
      "go mod tidy",
      "kubectl get pods",
    ])
      expect((await decide(cmd)).kind, cmd).toBe("allow");
  });

  it("a subcommand computed at run time is not modelled", () => {
    const model = COMMAND_MODELS.get("git")!;
    expect(unmodelled("git", model, [{ text: "", glob: false, unknown: "$(x) is computed at run time", src: "$(x)" }])).toMatch(/computed at run time/);
  });

  it("property: a random word that no model lists, as any program's subcommand, is never allowed", async () => {
    const programs = [...COMMAND_MODELS.keys()];
    const listed = new Set([...COMMAND_MODELS.values()].flatMap((m) => [...m.subcommands, ...Object.values(m.actions ?? {}).flat()]));
    const word = fc.stringMatching(/^[a-z][a-z0-9-]{1,11}$/).filter((w) => !listed.has(w));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...programs), word, async (program, sub) => {
        expect(unmodelled(program, COMMAND_MODELS.get(program)!, words(sub))).toBe(`${program}: subcommand \`${sub}\` is not modelled`);
        expect((await decide(`${program} ${sub}`)).kind).not.toBe("allow");
      }),
      { numRuns: 40 },
    );
  });

  it("property: an unlisted action of a subcommand with listed actions is never allowed", async () => {
    const pairs = [...COMMAND_MODELS].flatMap(([p, m]) => Object.entries(m.actions ?? {}).map(([s, acts]) => ({ p, s, acts })));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...pairs), fc.stringMatching(/^[a-z][a-z0-9-]{1,11}$/), async ({ p, s, acts }, action) => {
        fc.pre(!acts.includes(action));
        expect(unmodelled(p, COMMAND_MODELS.get(p)!, words(`${s} ${action}`))).toBe(`${p}: subcommand \`${s} ${action}\` is not modelled`);
        expect((await decide(`${p} ${s} ${action}`)).kind).not.toBe("allow");
      }),
      { numRuns: 40 },
    );
  });
});

describe("closed world: the package managers, build tools and runners that take a subcommand", () => {
  it.each([
    ["uv publish", "uv: subcommand `publish` is not modelled"],
    ["uv self update", "uv: subcommand `self` is not modelled"],
    ["uv tool uninstall ruff", "uv: subcommand `tool uninstall` is not modelled"],
    ["poetry self add x", "poetry: subcommand `self` is not modelled"],
    ["poetry publish --build", "poetry: subcommand `publish` is not modelled"],
    ["poetry env remove --all", "poetry: subcommand `env remove` is not modelled"],
    ["dotnet nuget push pkg.nupkg", "dotnet: subcommand `nuget push` is not modelled"],
    ["dotnet nuget locals all --clear", "dotnet: subcommand `nuget locals` is not modelled"],
    ["dotnet app.dll", "dotnet: subcommand `app.dll` is not modelled"],
    ["nix run nixpkgs#hello", "nix: subcommand `run` is not modelled"],
    ["nix store gc", "nix: subcommand `store gc` is not modelled"],
    ["nix --extra-experimental-features flakes profile remove x", "nix: subcommand `profile remove` is not modelled"],
    ["prisma db execute --file x.sql", "prisma: subcommand `db execute` is not modelled"],
    ["prisma db seed", "prisma: subcommand `db seed` is not modelled"],
    ["prisma migrate deploy", "prisma: subcommand `migrate deploy` is not modelled"],
    ["conda clean --all", "conda: subcommand `clean` is not modelled"],
    ["hatch clean", "hatch: subcommand `clean` is not modelled"],
    ["bundle clean --force", "bundle: subcommand `clean` is not modelled"],
    ["bazel frob //x", "bazel: subcommand `frob` is not modelled"],
  ])("%s", async (cmd, reason) => {
    const d = await decide(cmd);
    expect(d.kind).toBe("confirm");
    expect(d.why).toContain(reason);
  });

  it("their everyday subcommands are not questioned", async () => {
    for (const cmd of [
      "uv sync",
      "uv pip install requests",
      "uv --directory sub lock",
      "poetry lock --no-update",
      "poetry install",
      "dotnet build",
      "dotnet test --no-build",
      "nix build .#default",
      "nix flake update",
      "prisma generate",
      "prisma migrate status",
      "pipenv install",
      "conda env list",
      "bundle install",
      "bazel build //...",
    ])
      expect((await decide(cmd)).kind, cmd).toBe("allow");
  });

  it("systemctl asks about every verb but its queries, naming the verb", async () => {
    const d = await decide("systemctl frob web");
    expect(d.kind).toBe("confirm");
    expect(d.why).toContain("systemctl frob changes services");
    expect((await decide("systemctl status web")).kind).toBe("allow");
  });

  it("bun asks about a word that is neither its own subcommand nor a script", async () => {
    const d = await decide("bun frobnicate");
    expect(d.kind).toBe("confirm");
    expect(d.why).toContain("frobnicate");
  });
});

const check = (line: string): string | null => {
  const [name, ...rest] = line.split(" ");
  return unmodelledOption(name!, COMMAND_OPTIONS.get(name!)!, rest.map(lit));
};

/** A small project: files and folders the everyday commands below touch. */
const world = () =>
  createFakeEnv({
    files: {
      "/workspace/notes.txt": "a\nb\n",
      "/workspace/app.log": "log\n",
      "/workspace/src/a.ts": "x\n",
      "/workspace/src/b.ts": "y\n",
      "/workspace/bundle.tgz": "",
      "/workspace/run.sh": "echo hi\n",
    },
    dirs: ["/workspace/build", "/workspace/out"],
  });

describe("options a single-command program's rule does not model are named", () => {
  it.each([
    ["rm --frobnicate x", "rm: option `--frobnicate` is not modelled"],
    ["rm -rfq x", "rm: option `-q` is not modelled (in `-rfq`)"],
    ["rm --recur x", "rm: option `--recur` is not modelled"],
    ["cp --parents a/b.txt out", "cp: option `--parents` is not modelled"],
    ["mv -X a b", "mv: option `-X` is not modelled"],
    ["install --strip-program=sh a b", "install: option `--strip-program` is not modelled"],
    ["tar -xPf a.tar", "tar: option `-P` is not modelled (in `-xPf`)"],
    ["tar xPf a.tar", "tar: option `-P` is not modelled (in `xPf`)"],
    ["tar -xf a.tar --strip-components=1", "tar: option `--strip-components` is not modelled"],
    ["tar -I zstd -xf a.tar", "tar: option `-I` is not modelled"],
    ["tar --checkpoint-action=exec=sh -cf a.tar d", "tar: option `--checkpoint-action` is not modelled"],
    ["rsync -a -e ssh src/ host:dst/", "rsync: option `-e` is not modelled"],
    ["rsync -a --log-file=/tmp/x src/ dst/", "rsync: option `--log-file` is not modelled"],
    ["sed -X s/a/b/ f", "sed: option `-X` is not modelled"],
    ["tee --frob f", "tee: option `--frob` is not modelled"],
    ["chmod -Rq 644 f", "chmod: option `-q` is not modelled (in `-Rq`)"],
    ["chown -x u f", "chown: option `-x` is not modelled"],
    ["truncate -q -s 0 f", "truncate: option `-q` is not modelled"],
    ["shred --frob f", "shred: option `--frob` is not modelled"],
    ["dd if=a of=b frob=1", "dd: operand `frob=1` is not modelled"],
    ["dd if=a of=b --frob", "dd: option `--frob` is not modelled"],
    ["find . -fls0 x", "find: primary `-fls0` is not modelled"],
    ["find -files0-from list -delete", "find: primary `-files0-from` is not modelled"],
    ["find . --frob", "find: option `--frob` is not modelled"],
    ["find . -exec rm -f {} ; -fls0 x", "find: primary `-fls0` is not modelled"],
    ["find . -fprintf out %p -fls0 x", "find: primary `-fls0` is not modelled"],
  ])("%s", (line, reason) => {
    expect(check(line)).toBe(reason);
  });

  it.each([
    "rm -rf build dist",
    "rm -fr -- -q",
    "rm --force --recursive --one-file-system build",
    "cp -a -t out src/a.ts src/b.ts",
    "cp -t -q a",
    "cp --backup=numbered --suffix .old a b",
    "mv -n -S .bak a b",
    "ln -sfn target link",
    "install -D -m 0755 run.sh out/run.sh",
    "truncate -s -5 app.log",
    "truncate --size 0 app.log",
    "shred -n3 -uz secret",
    "touch -d 2020-01-01 -r ref f",
    "mkdir -pm 700 build/x",
    "chmod -x run.sh",
    "chmod -R -w,+r build",
    "chown --from=a:b -R c:d build",
    "sed -i.bak s/a/b/ notes.txt",
    "sed -ni -e p notes.txt",
    "sed -E -e s/a/b/ --expression=p -l 80 notes.txt",
    "sed --in-place=.orig s/a/b/ notes.txt",
    "tar xzf bundle.tgz -C out",
    "tar -czf out.tgz --exclude .git --mtime=2020-01-01 --sort=name src",
    "tar cfC out.tar src a.ts",
    "rsync -avz --delete --exclude .git --no-perms --max-delete 5 src/ out/",
    "dd if=/dev/zero of=img bs=1M count=10 status=progress",
    "find . -name *.orig -delete",
    "find -L . -maxdepth 2 -mtime -30 -type f -print0",
    "find . -newermt 2020-01-01 ( -name a -o -iname b ) -fprintf out %p -printf %s",
    "find . -exec grep -q --frob {} ; -print",
    "find . -name x -execdir rm -f {} +",
    "find -D tree -O3 . -print",
    "find . -fprintf out -%p -mtime -3 -print",
  ])("%s is within the model", (line) => {
    expect(check(line)).toBeNull();
  });

  it("a word computed at run time is left to the rule", () => {
    expect(unmodelledOption("rm", COMMAND_OPTIONS.get("rm")!, [{ text: "", glob: false, unknown: "$X is computed at run time", src: "$X" }])).toBeNull();
  });
});

describe("the gate asks about an unmodelled option, naming it; everyday options stay allowed", () => {
  it.each([
    ["rm -rfq build", "rm: option `-q` is not modelled"],
    ["cp --parents src/a.ts out", "cp: option `--parents` is not modelled"],
    ["tar -xzf bundle.tgz --strip-components=1 -C out", "tar: option `--strip-components` is not modelled"],
    ["sed -i --frob s/a/b/ notes.txt", "sed: option `--frob` is not modelled"],
    ["find src -fls0 out/list", "find: primary `-fls0` is not modelled"],
    ["ls | xargs rm --frob", "rm: option `--frob` is not modelled"],
  ])("%s", async (cmd, reason) => {
    const d = await decide(cmd, world());
    expect(d.kind).toBe("confirm");
    expect(d.why).toContain(reason);
  });

  it("touch -m takes no value: its operand is still judged", async () => {
    expect((await decide("touch -m ~/.bashrc", world())).kind).not.toBe("allow");
  });

  it.each([
    "mkdir -p build/x",
    "cp -v src/a.ts out/",
    "cp -a --no-preserve=mode src/a.ts out/",
    "install -D -m 0644 src/a.ts out/lib/a.ts",
    "rsync -a --exclude .git src/ out/",
    "echo hi | tee -a out/new.log",
    "touch -d 2020-01-01 notes.txt",
    "chmod -x run.sh",
    "sed -n 1p notes.txt",
    "tar -tzf bundle.tgz",
    "find src -name *.ts -print",
    "mkdir -pv --mode=700 build/y",
    "ln -s ../src out/src",
  ])("%s", async (cmd) => {
    expect((await decide(cmd, world())).kind).toBe("allow");
  });
});

/** Every program with an option model written in getopt style (find's primaries apart). */
const getopt = [...COMMAND_OPTIONS].filter(([, m]) => !m.primaries && !m.keys && (m.short || m.long));
const shortOf = (m: OptionModel) => [...(m.short ?? "")];
const listedShort = (m: OptionModel) => new Set([...(m.short ?? ""), ...(m.shortValue ?? ""), ...(m.shortOptional ?? "")]);
const listedLong = (m: OptionModel) => new Set([...(m.long ?? []), ...(m.longValue ?? [])]);

describe("properties of the option models", () => {
  it("property: every listed option, alone or in a cluster, is within the model", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...getopt).chain(([name, m]) =>
          fc.record({
            name: fc.constant(name),
            m: fc.constant(m),
            cluster: shortOf(m).length ? fc.subarray(shortOf(m), { minLength: 1 }) : fc.constant([] as string[]),
            long: fc.constantFrom(...(m.long ?? ["help"])),
          }),
        ),
        ({ name, m, cluster, long }) => {
          const argv = [...(cluster.length ? [`-${cluster.join("")}`] : []), ...((m.long ?? []).length ? [`--${long}`] : []), "file"];
          expect(unmodelledOption(name, m, argv.map(lit))).toBeNull();
        },
      ),
      { numRuns: 200 },
    );
  });

  it("property: a value-taking option's value is never read as an option, whatever it looks like", () => {
    const valued = getopt.flatMap(([name, m]) => [
      ...[...(m.shortValue ?? "")].map((l) => ({ name, m, opt: `-${l}` })),
      ...(m.longValue ?? []).map((l) => ({ name, m, opt: `--${l}` })),
    ]);
    fc.assert(
      fc.property(fc.constantFrom(...valued), fc.stringMatching(/^-[A-Za-z@?-][A-Za-z0-9-]{0,8}$/), ({ name, m, opt }, value) => {
        expect(unmodelledOption(name, m, [lit(opt), lit(value), lit("file")])).toBeNull();
      }),
      { numRuns: 200 },
    );
  });

  it("property: a short letter or long name a program does not list is asked about by its name", () => {
    fc.assert(
      fc.property(fc.constantFrom(...getopt), fc.stringMatching(/^[A-Za-z]$/), fc.stringMatching(/^[a-z][a-z0-9]{2,12}$/), ([name, m], letter, word) => {
        if (!listedShort(m).has(letter) && !m.dashOperand?.test(`-${letter}`))
          expect(unmodelledOption(name, m, words(`-${letter} file`))).toBe(`${name}: option \`-${letter}\` is not modelled`);
        if (!listedLong(m).has(word)) expect(unmodelledOption(name, m, words(`--${word} file`))).toBe(`${name}: option \`--${word}\` is not modelled`);
      }),
      { numRuns: 200 },
    );
  });

  it("property: one unlisted letter in a cluster of listed ones is named with its cluster", () => {
    const withShort = getopt.filter(([, m]) => (m.short ?? "").length > 0);
    fc.assert(
      fc.property(
        fc.constantFrom(...withShort).chain(([name, m]) =>
          fc.record({
            name: fc.constant(name),
            m: fc.constant(m),
            cluster: fc.subarray(shortOf(m), { minLength: 1 }),
            bad: fc.constantFrom(...[..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"].filter((l) => !listedShort(m).has(l))),
          }),
        ),
        ({ name, m, cluster, bad }) => {
          const w = `-${cluster.join("")}${bad}`;
          fc.pre(!m.dashOperand?.test(w));
          expect(unmodelledOption(name, m, [lit(w), lit("file")])).toBe(`${name}: option \`-${bad}\` is not modelled (in \`${w}\`)`);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("property: nothing after `--` is an option", () => {
    fc.assert(
      fc.property(fc.constantFrom(...getopt), fc.stringMatching(/^--?[a-z][a-z0-9-]{0,8}$/), ([name, m], w) => {
        expect(unmodelledOption(name, m, words(`-- ${w}`))).toBeNull();
      }),
      { numRuns: 100 },
    );
  });
});

describe("compressors, zip, cpio, sort, uniq, split, tree, crontab, ssh-keygen and date model their options", () => {
  it.each([
    ["gzip --frob a", "gzip: option `--frob` is not modelled"],
    ["gunzip -kX a.gz", "gunzip: option `-X` is not modelled (in `-kX`)"],
    ["xz --files=list", "xz: option `--files` is not modelled"],
    ["zstd --output-dir-flat out a", "zstd: option `--output-dir-flat` is not modelled"],
    ["zstd --filelist list", "zstd: option `--filelist` is not modelled"],
    ["bzip2 -Q a", "bzip2: option `-Q` is not modelled"],
    ["lz4 -X a", "lz4: option `-X` is not modelled"],
    ["brotli --frob a", "brotli: option `--frob` is not modelled"],
    ["pixz -i a -o b", "pixz: option `-i` is not modelled"],
    ["cpio --rsh-command=sh -o", "cpio: option `--rsh-command` is not modelled"],
    ["cpio -i --absolute-filenames", "cpio: option `--absolute-filenames` is not modelled"],
    ["zip -O other.zip a.zip f", "zip: option `-O` is not modelled"],
    ["zip -FS a.zip f", "zip: option `-F` is not modelled (in `-FS`)"],
    ["zip -TT sh a.zip f", "zip: option `-T` is not modelled (in `-TT`)"],
    ["zip -@ a.zip", "zip: option `-@` is not modelled"],
    ["unzip -: a.zip", "unzip: option `-:` is not modelled"],
    ["sort --compress-program=sh -o out in", "sort: option `--compress-program` is not modelled"],
    ["sort --files0-from=list", "sort: option `--files0-from` is not modelled"],
    ["uniq -X a b", "uniq: option `-X` is not modelled"],
    ["split --frob a", "split: option `--frob` is not modelled"],
    ["csplit -q a 3", "csplit: option `-q` is not modelled"],
    ["tree -R", "tree: option `-R` is not modelled"],
    ["tree --fromfile list", "tree: option `--fromfile` is not modelled"],
    ["crontab -X", "crontab: option `-X` is not modelled"],
    ["ssh-keygen -K", "ssh-keygen: option `-K` is not modelled"],
    ["ssh-keygen -M generate out", "ssh-keygen: option `-M` is not modelled"],
    ["date --frob", "date: option `--frob` is not modelled"],
  ])("%s", (line, reason) => {
    expect(check(line)).toBe(reason);
  });

  it.each([
    "gzip -9 -k -S .gzip a",
    "gunzip -f -c a.gz",
    "xz -T0 -e -9 a",
    "xz --threads 4 --check=crc32 a",
    "zstd -19 --long -T0 -o out.zst a",
    "zstd --rm -q a",
    "lz4 -9 -BD a out.lz4",
    "brotli -q 11 -o out.br a",
    "lzip -9 -k a",
    "pigz -p 4 -k a",
    "bzip2 -dk a.bz2",
    "cpio -idmv -D out",
    "cpio -o -H newc -F out.cpio",
    "zip -r -q -9 out.zip src -x *.log",
    "zip -d a.zip old.txt",
    "unzip -q -o a.zip -d out",
    "unzip -Z1 a.zip",
    "sort -u -k 2,2 -t , -o out.csv in.csv",
    "sort --check=quiet in",
    "uniq -c --group=append in out",
    "split -l 100 -d -a 3 --additional-suffix=.csv in part-",
    "csplit -f part -n 3 -z in /x/ {*}",
    "tree -L 2 -I node_modules -o out.txt",
    "crontab -l -u alice",
    "crontab -ir",
    "ssh-keygen -t ed25519 -C me -N x -f key",
    "ssh-keygen -lf key.pub",
    "date -u +%Y-%m-%d",
    "date -d yesterday -Iseconds",
  ])("%s is within the model", (line) => {
    expect(check(line)).toBeNull();
  });
});

describe("publishing to a registry is asked about, naming the command; building and checking stay allowed", () => {
  it.each([
    ["npm publish", "npm publish publishes to a registry"],
    ["npm publish --tag next", "npm publish publishes to a registry"],
    ["npm unpublish pkg@1.0.0", "npm unpublish removes from a registry"],
    ["npm deprecate pkg@1 gone", "npm deprecate publishes to a registry"],
    ["npm dist-tag add pkg@1.0.0 latest", "npm dist-tag publishes to a registry"],
    ["pnpm publish --no-git-checks", "pnpm publish publishes to a registry"],
    ["yarn publish", "yarn publish publishes to a registry"],
    ["yarn npm publish --access public", "yarn npm publish publishes to a registry"],
    ["bun publish", "bun publish publishes to a registry"],
    ["cargo publish", "cargo publish publishes to a registry"],
    ["cargo yank --version 1.0.0", "cargo yank removes from a registry"],
    ["twine upload dist/*", "twine upload publishes to a registry"],
    ["gem push pkg-1.0.gem", "gem push publishes to a registry"],
    ["gem yank pkg -v 1.0", "gem yank removes from a registry"],
    ["docker push registry.example/app:1", "docker push publishes to a registry"],
    ["podman image push app", "podman image push publishes to a registry"],
    ["docker buildx build --push -t app .", "docker buildx build publishes to a registry"],
    ["docker compose push", "docker compose push publishes to a registry"],
    ["pipenv --rm", "pipenv --rm removes the project's virtualenv"],
  ])("%s", async (cmd, reason) => {
    const d = await decide(cmd);
    expect(d.kind).toBe("confirm");
    expect(d.why).toContain(reason);
  });

  it("dry runs, queries, packing and building publish nothing", async () => {
    for (const cmd of [
      "npm publish --dry-run",
      "npm pack",
      "npm dist-tag ls pkg",
      "cargo publish --dry-run",
      "cargo package",
      "twine check dist/*",
      "gem build pkg.gemspec",
      "gem list",
      "docker build -t app .",
      "pipenv install",
    ])
      expect((await decide(cmd)).kind, cmd).toBe("allow");
  });

  it("property: a publishing subcommand of any npm-like program, with any package words after it, is never allowed", async () => {
    const word = fc.stringMatching(/^[a-z@][a-z0-9.@/-]{0,10}$/).filter((w) => !["ls", "list", "get"].includes(w));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("npm", "pnpm", "yarn", "bun"),
        fc.constantFrom(...Object.keys(NPM_PUBLISHING)),
        fc.array(word, { maxLength: 3 }),
        async (program, sub, rest) => {
          const d = await decide([program, sub, ...rest].join(" "));
          expect(d.kind).not.toBe("allow");
          expect(d.why).toContain(`${program} ${sub}`);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("gem asks about a subcommand it does not model, naming it", async () => {
    const d = await decide("gem uninstall rake");
    expect(d.kind).toBe("confirm");
    expect(d.why).toContain("gem: subcommand `uninstall` is not modelled");
  });
});
