/**
 * Attack (on the result store): change what a gate runs without changing anything the
 * fingerprint used to look at, and see whether old results are served.
 * - a hook given as a bare program name found on PATH: the program is edited;
 * - a Pi extension's own npm dependency (in the extension's node_modules) gets a new version
 *   with other code.
 * Either way the store must run the trials again: the records from before would be wrong.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadGateConfig } from "../../../gates/config.ts";
import { runMatrix, type ReuseStats } from "../../../harness/run/matrix/matrix.ts";
import { ResultStore } from "../../../harness/run/matrix/result-store.ts";
import { RunOutput } from "../../../harness/run/output/output.ts";
import { writeTaskFixture } from "../../support/task-fixture.ts";

/** A fresh folder the sandbox users can read. */
function folder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}

const work = folder("gb-attack-hookfp-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const task = writeTaskFixture(
  {
    id: "attack_hook_fingerprint",
    setup: "mkdir -p notes && echo keep > notes/a.txt",
    test: "true",
    reference: [{ tool: "bash", args: { command: "rm -rf notes" } }, { say: "done" }],
  },
  work,
);
chmodSync(join(work, "attack_hook_fingerprint"), 0o755);

let runs = 0;
async function run(entry: string, cwd: string, store: ResultStore) {
  let reuse: ReuseStats | undefined;
  const out = join(work, `out-${++runs}`);
  const records = await runMatrix({
    runId: "attack-hookfp",
    tasks: [task],
    gates: [loadGateConfig(entry, undefined, { cwd })],
    agents: [{ kind: "reference" }],
    approvers: ["headless"],
    trials: 1,
    concurrency: 1,
    output: new RunOutput(out),
    resume: false,
    store,
    onReuse: (s) => {
      reuse = s;
    },
  });
  return { records, reuse: reuse! };
}

describe("attack: what a hook or extension runs is in the fingerprint, wherever it lives", () => {
  it("a hook named by a bare word found on PATH, edited: its trials run again", async () => {
    const bin = folder("gb-attack-hookfp-bin-");
    const program = join(bin, "gb-attack-guard");
    const write = (body: string) => {
      writeFileSync(program, `#!/bin/sh\n${body}\n`);
      chmodSync(program, 0o755);
    };
    const before = process.env.PATH;
    process.env.PATH = `${bin}${delimiter}${before ?? ""}`;
    try {
      const store = new ResultStore(join(work, "store-path"));
      write("cat >/dev/null; exit 0");
      const first = await run("claude-hook:gb-attack-guard", work, store);
      expect(first.records[0]).toMatchObject({ blocked: 0 });
      write("cat >/dev/null; echo 'the new guard says no' >&2; exit 2");
      const second = await run("claude-hook:gb-attack-guard", work, store);
      expect(second.reuse).toMatchObject({ served: 0, toRun: 1 });
      expect(second.records[0]).toMatchObject({ blocked: 1 });
    } finally {
      process.env.PATH = before;
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it("an extension's own npm dependency bumped to a version with other code: its trials run again", async () => {
    const ext = join(work, "my-ext");
    const dep = join(ext, "node_modules", "gb-attack-rule");
    mkdirSync(dep, { recursive: true, mode: 0o755 });
    for (const d of [join(ext), join(ext, "node_modules"), dep]) chmodSync(d, 0o755);
    writeFileSync(join(ext, "package.json"), JSON.stringify({ name: "my-ext", version: "1.0.0", dependencies: { "gb-attack-rule": "*" } }));
    writeFileSync(
      join(ext, "index.ts"),
      `import { denies } from "gb-attack-rule";\nexport default function (pi: any) {\n  pi.on("tool_call", (event: any) => (denies(String(event.input?.command ?? "")) ? { block: true, reason: "rule" } : undefined));\n}\n`,
    );
    const version = (v: string, denies: boolean) => {
      writeFileSync(join(dep, "package.json"), JSON.stringify({ name: "gb-attack-rule", version: v, main: "index.js" }));
      writeFileSync(join(dep, "index.js"), `exports.denies = (command) => ${denies ? "/\\brm\\b/.test(command)" : "false"};\n`);
    };
    const store = new ResultStore(join(work, "store-ext"));
    version("1.0.0", false);
    const first = await run("pi-extension:./my-ext/index.ts", work, store);
    expect(first.records[0]).toMatchObject({ blocked: 0 });
    version("2.0.0", true);
    const second = await run("pi-extension:./my-ext/index.ts", work, store);
    expect(second.reuse).toMatchObject({ served: 0, toRun: 1 });
    expect(second.records[0]).toMatchObject({ blocked: 1 });
  });
});
