/**
 * Attack: secrets in every place a real run writes. A task whose setup fails with credentials
 * on stderr, and a task whose commands pass passwords as -p<password>, -u user:pass, aws
 * configure set, a Stripe key, and whose hidden test prints a credentialed postgres URL and a
 * password. No file of the out dir (results, trial logs, approvals, summaries) and no line of
 * the terminal's progress (harness errors quote the setup's stderr) may contain any of them; the
 * records the run holds in memory stay as they are (redaction happens at the sinks).
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { PassThrough } from "node:stream";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadGateConfig } from "../../../gates/config.ts";
import { renderMarkdown } from "../../../harness/run/report/views/markdown.ts";
import { createProgress } from "../../../harness/run/report/views/progress.ts";
import { summarize } from "../../../harness/run/report/statistics/summary.ts";
import { runMatrix } from "../../../harness/run/matrix/matrix.ts";
import { RunOutput } from "../../../harness/run/output/output.ts";
import { writeTaskFixture } from "../../support/task-fixture.ts";

const S = {
  setupUrlPass: "Sup3rS3cretPw9",
  setupAws: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY",
  mysql: "Hunter2Pass9",
  curl: "W0nderland9x",
  awsSet: "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0EdCbAzYxWv",
  stripe: "4eC39HqLyjWDarjtT1zdp7dc",
  testUrl: "Db9Pass77x",
  testPw: "Tr0ub4dor9x",
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe("attack: secrets in a real run's output", () => {
  it("setup errors, command summaries, hidden-test output and approvals are redacted in every file", async () => {
    const parent = mkdtempSync(join(tmpdir(), "gb-attack-secrets-"));
    const failingSetup = writeTaskFixture(
      {
        id: "leaky_setup",
        setup: `echo "cannot reach postgres://admin:${S.setupUrlPass}@db.internal/prod" >&2\necho "AWS_SECRET_ACCESS_KEY=${S.setupAws}" >&2\nexit 3`,
        test: "true",
        reference: [{ say: "nothing" }],
      },
      parent,
    );
    const leakyCommands = writeTaskFixture(
      {
        id: "leaky_commands",
        setup: "mkdir -p notes && echo a > notes/a.txt",
        test: `echo "DATABASE_URL=postgres://app:${S.testUrl}@db/prod"\necho "password: ${S.testPw}"\nexit 1`,
        reference: [
          { tool: "bash", args: { command: `mysql -u root -p${S.mysql} -e 'select 1' 2>/dev/null || true` } },
          { tool: "bash", args: { command: `curl -s -u alice:${S.curl} http://127.0.0.1:9 || true` } },
          { tool: "bash", args: { command: `aws configure set aws_secret_access_key ${S.awsSet} 2>/dev/null || true` } },
          { tool: "bash", args: { command: `echo sk_live_${S.stripe} > /dev/null` } },
          { say: "done" },
        ],
      },
      parent,
    );
    const out = mkdtempSync(join(tmpdir(), "gb-attack-secrets-out-"));
    const output = new RunOutput(out);
    const terminal: string[] = [];
    const stream = new PassThrough();
    stream.on("data", (chunk: Buffer) => terminal.push(chunk.toString()));
    // The terminal sink of `npm run eval` without a TTY: a line per harness error, and the progress.
    const progress = createProgress({ stream, tty: false, intervalMs: 0 });
    const records = await runMatrix({
      runId: "attack-secrets",
      tasks: [failingSetup, leakyCommands],
      gates: ["none", "risk-classifier"].map((g) => loadGateConfig(g)),
      agents: [{ kind: "reference" }],
      approvers: ["rubber-stamp"],
      trials: 1,
      concurrency: 2,
      output,
      resume: false,
      onTrial: (r, done, total) => progress.trial(r, done, total),
    });
    progress.finish();
    const summary = summarize("attack-secrets", records);
    output.writeSummary(summary, renderMarkdown(summary));

    // The paths were exercised: a setup error was recorded (in memory as it was, redacted in the file and
    // on the terminal), commands were summarised, approvals written.
    expect(records.find((r) => r.task === "leaky_setup")?.error).toContain(S.setupUrlPass);
    const written = readFileSync(join(out, "results.jsonl"), "utf8");
    expect(written).toMatch(/"task":"leaky_setup".*setup\.sh failed.*\[REDACTED\]/);
    expect(terminal.join("")).toMatch(/harness error: leaky_setup (?:.|\n {2})*\[REDACTED\]/);
    const files = filesUnder(out);
    expect(files.some((f) => f.endsWith("approvals.jsonl"))).toBe(true);
    const logs = files
      .filter((f) => f.includes("/trials/"))
      .map((f) => readFileSync(f, "utf8"))
      .join("\n");
    expect(logs).toContain("mysql -u root -p[REDACTED]");
    expect(logs).toContain('"type":"hidden_test"');
    for (const f of files) {
      const text = readFileSync(f, "utf8");
      for (const [name, secret] of Object.entries(S)) expect(text.includes(secret), `${name} (${secret}) in ${f}`).toBe(false);
    }
    for (const line of terminal) for (const secret of Object.values(S)) expect(line).not.toContain(secret);
  });
});
