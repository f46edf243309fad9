/**
 * Read-only dry runs inside a real world name the real targets of find -delete and
 * rsync --delete; too long a listing, a missing sandbox or a changed world keep the
 * directory-level confirmation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorld, type TrialWorld } from "../../../../harness/sandbox/world/world.ts";
import type { EnvView } from "../../../../gates/types.ts";
import { createFakeEnv } from "../../../../scripts/fixtures/fake-env.ts";
import { explainBash } from "../../../../gates/shell/gate.ts";
import { DRY_RUN_MAX_PATHS } from "../../../../gates/shell/dry-run.ts";

let world: TrialWorld;

const SETUP = `set -e
mkdir -p logs/audit big www public/css /srv/www/css /srv/www/js /srv/www/uploads/2024
for s in api worker; do echo cur > logs/$s.log; for n in 1 2 11; do echo old > logs/$s.log.$n; done; done
echo keep > logs/audit/access.log.1
echo keep > logs/notes.log.txt
for n in $(seq 1 ${DRY_RUN_MAX_PATHS + 5}); do echo x > big/f$n.tmp; done
echo v2 > public/index.html; echo v2 > public/css/site.css
echo v1 > /srv/www/index.html; echo old > /srv/www/promo.html; echo v1 > /srv/www/css/site.css; echo old > /srv/www/js/legacy.js
echo pdf > /srv/www/uploads/2024/invoice.pdf
find /srv/www -exec touch -h -d 2023-09-01 {} +
mkdir -p /tmp/site; printf x > /tmp/site/odd$'\n''*deleting   decoy'
mkdir -p pack/src; echo a > pack/src/a.txt; echo b > pack/src/b.txt; tar -czf bundle.tgz -C pack src
(cd pack && zip -qr ../bundle.zip src)
mkdir -p out/src; echo old > out/src/a.txt; echo keep > out/other.txt
`;

beforeAll(async () => {
  world = await createWorld({ mounts: ["/srv/www"] });
  const r = await world.exec(SETUP);
  expect(r.exitCode, r.stderr).toBe(0);
});
afterAll(async () => {
  await world?.close();
});

const sorted = (xs: string[]) => [...xs].sort();
const resourcesOf = (d: { kind: string; resources?: string[] }) => (d.kind === "confirm" ? sorted(d.resources ?? []) : []);

describe("find -delete dry run", () => {
  const rotated = ["api.log.1", "api.log.2", "api.log.11", "worker.log.1", "worker.log.2", "worker.log.11"].map((f) => `/workspace/logs/${f}`);
  const made = rotated;

  it("names exactly the files the filter matches", async () => {
    const x = await explainBash("find logs -maxdepth 1 -type f -regex '.*\\.log\\.[0-9]+' -delete", world.env);
    expect(x.decision.kind).toBe("confirm");
    expect(resourcesOf(x.decision)).toEqual(sorted(made));
    expect(x.targets.every((t) => !t.contents)).toBe(true);
  });

  it("keeps -print and the tracked cwd, and treats -exec rm {} the same way", async () => {
    const a = await explainBash("cd logs && find . -maxdepth 1 -name '*.log.[0-9]*' -print -delete", world.env);
    expect(resourcesOf(a.decision)).toEqual(sorted(made));
    const b = await explainBash("find logs -maxdepth 1 -type f -regex '.*\\.log\\.[0-9]+' -exec rm -f {} +", world.env);
    expect(resourcesOf(b.decision)).toEqual(sorted(made));
  });

  it("without -maxdepth reaches the audit file too (the listing follows the real filters)", async () => {
    const x = await explainBash("find logs -type f -name '*.log.1' -delete", world.env);
    expect(resourcesOf(x.decision)).toEqual(sorted(["/workspace/logs/api.log.1", "/workspace/logs/worker.log.1", "/workspace/logs/audit/access.log.1"]));
  });

  it("a match of nothing deletes nothing and is allowed", async () => {
    const x = await explainBash("find logs -name '*.nomatch' -delete", world.env);
    expect(x.decision.kind).toBe("allow");
  });

  it("an unfiltered find -delete of the workspace is still denied as a root deletion", async () => {
    const x = await explainBash("find /workspace -delete", world.env);
    expect(x.decision).toMatchObject({ kind: "deny", code: "root_delete" });
  });

  it("a listing over the cap falls back to naming the directory", async () => {
    const x = await explainBash("find big -type f -name '*.tmp' -delete", world.env);
    expect(resourcesOf(x.decision)).toEqual(["/workspace/big"]);
    expect(x.targets).toContainEqual(expect.objectContaining({ op: "delete", path: "/workspace/big", contents: true }));
  });

  it("falls back when an earlier command on the line may change what matches, or -empty cascades", async () => {
    const a = await explainBash("touch logs/new.log.3 && find logs -maxdepth 1 -type f -regex '.*\\.log\\.[0-9]+' -delete", world.env);
    expect(resourcesOf(a.decision)).toContain("/workspace/logs");
    const b = await explainBash("find logs -type d -empty -delete", world.env);
    expect(b.targets).toContainEqual(expect.objectContaining({ path: "/workspace/logs", contents: true }));
  });

  it("an -exec that is not a plain rm of the match keeps the directory-level effect", async () => {
    const x = await explainBash("find logs -name '*.log.1' -exec grep -q old {} \\; -delete", world.env);
    expect(resourcesOf(x.decision)).toEqual(["/workspace/logs"]);
  });

  it("never deletes anything while listing", async () => {
    await explainBash("find logs -delete", world.env);
    const r = await world.exec("ls logs | wc -l");
    expect(r.stdout.trim()).toBe("10"); // 2 current + 6 rotated + audit/ + notes.log.txt
  });
});

describe("rsync --delete dry run", () => {
  it("names the files rsync would delete and overwrite, not the excluded uploads", async () => {
    const x = await explainBash("rsync -rlt --delete --exclude '/uploads/' public/ /srv/www/", world.env);
    expect(x.decision.kind).toBe("confirm");
    const deleted = sorted(x.targets.filter((t) => t.op === "delete").map((t) => t.path));
    expect(deleted).toEqual(sorted(["/srv/www/promo.html", "/srv/www/js/legacy.js", "/srv/www/js"]));
    expect(resourcesOf(x.decision)).toEqual(sorted([...deleted, "/srv/www/index.html", "/srv/www/css/site.css"]));
    expect(resourcesOf(x.decision).some((r) => r.includes("uploads"))).toBe(false);
  });

  it("without the exclude the uploads are named", async () => {
    const x = await explainBash("rsync -a --delete public/ /srv/www/", world.env);
    expect(resourcesOf(x.decision)).toEqual(expect.arrayContaining(["/srv/www/uploads/2024/invoice.pdf", "/srv/www/uploads"]));
  });

  it("a name rsync had to escape (a newline) is not trusted: the destination is named", async () => {
    const x = await explainBash("rsync -a --delete public/ /tmp/site/", world.env);
    expect(x.decision).toMatchObject({ kind: "confirm", resources: ["/tmp/site"] });
  });

  it("the destination is untouched by the dry run", async () => {
    const r = await world.exec("cat /srv/www/promo.html /srv/www/index.html && ls /srv/www/uploads/2024");
    expect(r.stdout).toBe("old\nv1\ninvoice.pdf\n");
  });
});

describe("archive listing", () => {
  it("tar -x names the existing files it would replace, not the new ones", async () => {
    const x = await explainBash("tar -xzf bundle.tgz -C out", world.env);
    expect(x.decision.kind).toBe("confirm");
    expect(resourcesOf(x.decision)).toContain("/workspace/out/src/a.txt");
    expect(resourcesOf(x.decision)).not.toContain("/workspace/out/src/b.txt");
    expect(resourcesOf(x.decision)).not.toContain("/workspace/out/other.txt");
  });

  it("unzip -o the same way; into a new folder nothing is replaced", async () => {
    const x = await explainBash("unzip -o bundle.zip -d out", world.env);
    expect(resourcesOf(x.decision)).toContain("/workspace/out/src/a.txt");
    expect(resourcesOf(x.decision)).not.toContain("/workspace/out/src/b.txt");
    expect((await explainBash("tar -xzf bundle.tgz -C fresh", world.env)).decision.kind).toBe("allow");
  });
});

describe("without a sandbox (fake env) nothing changes", () => {
  const fake: EnvView = createFakeEnv({
    files: { "/workspace/logs/api.log": "a\n", "/workspace/logs/api.log.1": "b\n", "/workspace/public/index.html": "v2\n", "/srv/www/index.html": "v1\n" },
  });
  it("find -regex -delete names the directory", async () => {
    expect(fake.runGateProcess).toBeUndefined();
    const x = await explainBash("find logs -maxdepth 1 -type f -regex '.*\\.log\\.[0-9]+' -delete", fake);
    expect(x.decision).toMatchObject({ kind: "confirm", resources: ["/workspace/logs"] });
  });
  it("rsync --delete names the destination", async () => {
    const x = await explainBash("rsync -rlt --delete --exclude '/uploads/' public/ /srv/www/", fake);
    expect(x.decision).toMatchObject({ kind: "confirm", resources: ["/srv/www"] });
  });
  it("a sandbox that fails keeps the directory-level effect", async () => {
    const failing: EnvView = { ...fake, runGateProcess: async () => ({ exitCode: 1, stdout: "", stderr: "boom", timedOut: false }) };
    const timedOut: EnvView = {
      ...fake,
      runGateProcess: async () => ({ exitCode: null, stdout: "f /workspace/logs/api.log.1\0", stderr: "", timedOut: true }),
    };
    const throwing: EnvView = { ...fake, runGateProcess: async () => Promise.reject(new Error("bwrap gone")) };
    const garbage: EnvView = { ...fake, runGateProcess: async () => ({ exitCode: 0, stdout: "no-nul-terminator", stderr: "", timedOut: false }) };
    for (const env of [failing, timedOut, throwing, garbage]) {
      const x = await explainBash("find logs -maxdepth 1 -type f -regex '.*\\.log\\.[0-9]+' -delete", env);
      expect(x.decision).toMatchObject({ kind: "confirm", resources: ["/workspace/logs"] });
    }
  });
});
