/**
 * Every file gatebench writes about a run goes through RunOutput (harness/run/output/output.ts),
 * which redacts it. A new module in harness/ that writes files or logs to the console must be
 * added here on purpose, with the reason it cannot carry a secret; otherwise this test fails.
 * The terminal likewise: what the CLIs print goes through harness/text/redact/terminal.ts.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const HARNESS = join(import.meta.dirname, "../../../../../harness");

/** Writers other than the redacting sink, and why they are safe. */
const ALLOWED: Record<string, string> = {
  "run/output/output.ts": "the sink: redacts every record, event, approval and summary before writing",
  "run/matrix/result-store.ts": "stores finished trials in the redacted form results.jsonl and the event logs hold (redactDeep before writing)",
  "apps/cli/new-task.ts": "writes a task scaffold from fixed templates",
  "apps/cli/init.ts": "writes the starter files (fixed templates under apps/cli/starter/) into the user's repository",
  "apps/cli/mutate.ts":
    "writes generated personas whose calls are transforms of the task's own committed personas (an edit that blanks a file quotes the text the task's setup wrote)",
  "trial/agent/drivers/cassette.ts":
    "eval --record DIR writes every model request and response through jsonText (redacted value by value, identifiers kept); a response the redactor changed is named on the terminal",
  "trial/agent/drivers/recordings.ts":
    "eval --record-personas writes a real model's calls as a persona the user asked for; the model saw only the sandboxed task world, replays need the calls verbatim, and a secret-shaped text is flagged on the terminal",
  "apps/cli/import.ts": "writes the persona a user imports from their own transcript to the path they name; replays need the calls verbatim",
  "apps/adversity/transforms.ts": "no writer: `fs.writeFileSync` appears inside the node one-liner an evasion variant runs in the sandbox",
  "run/report/publishing/publish.ts": "appends the PR table, redacted, to the CI step summary file ($GITHUB_STEP_SUMMARY)",
  "sandbox/world/strict-profile.ts": "writes an empty mask file",
  "sandbox/world/trial-dir.ts": "writes the trial dir's owner marker (pid and start time)",
  "sandbox/world/git-index.ts": "writes a fixed git refresh script listing the world's root paths",
  "sandbox/files/contained.ts": "copies a task's own files into the staged folder a sandbox reads them from (nothing of a trial's output)",
  "run/report/publishing/merge.ts": "copies the shards' event logs, written redacted by their runs, into the merged run folder",
  "trial/agent/drivers/products/claude-code.ts":
    "writes the product's settings (the gate configuration's own content) into the trial's staged folder the product reads",
  "trial/agent/drivers/products/codex.ts": "writes the model catalogue (the harness's own model entry) into the endpoint's folder the product reads",
  "trial/agent/drivers/products/gemini-cli.ts":
    "writes the product's settings and the configuration's policy file (the gate configuration's own content) into the endpoint's folder the product reads",
  "trial/invariants.ts": "writes the preserve probe and its spec (the task's own entries) into a private folder the probe's sandbox reads",
  "trial/agent/drivers/products/install.ts":
    "writes the product cache's package.json stub and manifest (name, version, binary digest) when it installs a product",
};

/** Modules that write to the terminal without redacting, and why. */
const RAW_TERMINAL: Record<string, string> = {
  "text/redact/terminal.ts": "the terminal helper: redacts everything it prints",
  "apps/cli/import.ts":
    "prints the imported persona for the user to redirect into a file; replays need the calls verbatim (on a terminal its control characters are escaped)",
  "trial/agent/drivers/products/in-world.ts":
    "no terminal of the harness: the forwarder's own source, run inside the trial's sandbox, reports its errors on its stderr",
};

const WRITER = /\b(writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream)\s*\(|\bconsole\.(log|error|warn|info|debug)\s*\(/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") ? [p] : [];
  });
}

describe("one sink for run output", () => {
  it("no module in harness/ writes files or console output except the listed ones", () => {
    const writers = sources(HARNESS)
      .filter((f) =>
        readFileSync(f, "utf8")
          .split("\n")
          .some((line) => !line.trim().startsWith("//") && !line.trim().startsWith("*") && WRITER.test(line)),
      )
      .map((f) => relative(HARNESS, f))
      .sort();
    expect(writers).toEqual(Object.keys(ALLOWED).sort());
  });

  it("no module in harness/ writes to process.stdout or process.stderr except the redacting terminal helper", () => {
    const raw = /\bprocess\.(stdout|stderr)\.write\s*\(/;
    const writers = sources(HARNESS)
      .filter((f) =>
        readFileSync(f, "utf8")
          .split("\n")
          .some((line) => !line.trim().startsWith("//") && !line.trim().startsWith("*") && raw.test(line)),
      )
      .map((f) => relative(HARNESS, f))
      .sort();
    expect(writers).toEqual(Object.keys(RAW_TERMINAL).sort());
  });
});
