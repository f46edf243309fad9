/**
 * The GitHub workflow that takes gatebench past one machine (.github/workflows/gatebench.yml),
 * checked by parsing it. The Kubernetes recipe (deploy/k8s/, the Dockerfile) has test/unit/deploy/k8s.test.ts.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseShard } from "../../../../harness/apps/cli/shard.ts";
import { PR_COMMENT_MARKER } from "../../../../harness/run/report/views/markdown.ts";
import { runCommentScript as runScript, workflowSchemaErrors, workflowStructureProblems, type FakeComment } from "../../../support/workflow.ts";

const root = new URL("../../../../", import.meta.url).pathname;
type Step = { uses?: string; run?: string; with?: Record<string, unknown>; if?: string; name?: string };
type Job = {
  needs?: string | string[];
  "runs-on": string;
  permissions?: Record<string, string> | string;
  strategy?: { matrix: Record<string, unknown[]> };
  steps: Step[];
};

/** The workflow's comment script over `comments`, with the summary a run wrote as the file it reads. */
const runCommentScript = (script: string, comments: FakeComment[]) => runScript(script, comments, `${PR_COMMENT_MARKER}\n| gate |`);

/** What bash would expand `$(( a + 1 ))/b` to for one job, with the workflow expressions filled in. */
function shardArg(run: string, vars: Record<string, string | number>): string {
  const filled = run
    .replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_, k: string) => String(vars[k] ?? `<${k}>`))
    .replace(/\$\(\(\s*(\d+)\s*\+\s*1\s*\)\)/g, (_, n: string) => String(Number(n) + 1));
  const m = /--shard\s+(\S+)/.exec(filled);
  expect(m, run).not.toBeNull();
  return m![1]!;
}

describe(".github/workflows/gatebench.yml", () => {
  const wf = parse(readFileSync(`${root}.github/workflows/gatebench.yml`, "utf8")) as {
    on: unknown;
    permissions: Record<string, string> | string;
    jobs: Record<string, Job>;
  };

  it("passes GitHub's workflow parser and the structural checks (needs, steps, permissions, no spliced input)", () => {
    const text = readFileSync(`${root}.github/workflows/gatebench.yml`, "utf8");
    expect(workflowSchemaErrors(text, "gatebench.yml")).toEqual([]);
    expect(workflowStructureProblems(wf as never)).toEqual([]);
  });

  it("shards run as a matrix, each with a valid --shard I/N from the job's index and total", () => {
    const shard = wf.jobs.shard!;
    const total = shard.strategy!.matrix.shard!.length;
    expect(total).toBeGreaterThan(1);
    const run = shard.steps.find((s) => s.run?.includes("--shard"))!.run!;
    expect(run).toContain("strategy.job-index");
    expect(run).toContain("strategy.job-total");
    const seen = new Set<number>();
    for (let i = 0; i < total; i++) {
      const { index, count } = parseShard(shardArg(run, { "strategy.job-index": i, "strategy.job-total": total }))!;
      expect(count).toBe(total);
      seen.add(index);
    }
    expect([...seen].sort()).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  });

  it("bubblewrap is allowed its user namespaces on ubuntu-24.04 before the eval runs", () => {
    const steps = wf.jobs.shard!.steps;
    const sysctl = steps.findIndex((s) => s.run?.includes("sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"));
    const evalStep = steps.findIndex((s) => s.run?.includes("npm run eval"));
    expect(wf.jobs.shard!["runs-on"]).toBe("ubuntu-24.04");
    expect(sysctl).toBeGreaterThanOrEqual(0);
    expect(sysctl).toBeLessThan(evalStep);
  });

  it("artifact names are unique per shard; the merge job needs the shards, merges them and uploads report.html", () => {
    const upload = wf.jobs.shard!.steps.find((s) => s.uses?.startsWith("actions/upload-artifact"))!;
    const name = String(upload.with!.name);
    const names = [0, 1, 2, 3].map((i) => name.replace(/\$\{\{\s*strategy\.job-index\s*\}\}/, String(i)));
    expect(new Set(names).size).toBe(4);
    const merge = wf.jobs.merge!;
    expect([merge.needs].flat()).toContain("shard");
    const download = merge.steps.find((s) => s.uses?.startsWith("actions/download-artifact"))!;
    expect(String(download.with!.pattern)).toBe(name.replace(/\$\{\{.*\}\}/, "*"));
    expect(merge.steps.some((s) => /npm run eval -- merge /.test(s.run ?? ""))).toBe(true);
    const report = merge.steps.find((s) => s.uses?.startsWith("actions/upload-artifact"))!;
    expect(String(report.with!.path)).toContain("report.html");
  });

  it("each shard restores exactly the result store its shard saved on the base commit, and only the base branch saves", () => {
    const steps = wf.jobs.shard!.steps;
    const restore = steps.findIndex((s) => s.uses?.startsWith("actions/cache/restore"));
    const save = steps.findIndex((s) => s.uses?.startsWith("actions/cache/save"));
    const evalStep = steps.findIndex((s) => s.run?.includes("npm run eval -- --shard"));
    expect(restore).toBeGreaterThanOrEqual(0);
    expect(restore).toBeLessThan(evalStep);
    expect(save).toBeGreaterThan(evalStep);
    const r = steps[restore]!.with!;
    const shardKey = "gatebench-store-shard${{ matrix.shard }}of${{ strategy.job-total }}-";
    expect(r.path).toBe("reports/store");
    // The base commit's store, or the previous commit's on a push; no fallback an earlier commit of the pull request could have saved.
    expect(String(r.key)).toBe(`${shardKey}\${{ github.event.pull_request.base.sha || github.event.before }}`);
    expect(r["restore-keys"]).toBeUndefined();
    expect(steps[save]!.with).toMatchObject({ path: "reports/store", key: `${shardKey}\${{ github.sha }}` });
    expect((steps[save] as { if?: string }).if).toBe("github.event_name != 'pull_request'");
    // the eval uses the default store folder: no --no-store, no other --store
    expect(steps[evalStep]!.run).not.toMatch(/--no-store|--store /);
    // a push to main saves what later pull requests restore
    expect((wf.on as { push?: { branches?: string[] } }).push?.branches).toContain("main");
  });

  const commentJob = () => {
    const jobs = Object.entries(wf.jobs).filter(([, j]) => j.steps.some((s) => s.uses?.startsWith("actions/github-script")));
    expect(jobs.length).toBe(1);
    return jobs[0]!;
  };

  it("one sticky PR comment, found by gatebench's marker and updated in place", () => {
    const [name, job] = commentJob();
    const step = job.steps.find((s) => s.uses?.startsWith("actions/github-script"))!;
    const script = String(step.with!.script);
    expect(script).toContain(PR_COMMENT_MARKER);
    expect(script).toContain("updateComment");
    expect(script).toContain("createComment");
    expect([job.needs].flat()).toContain("merge");
    expect(name).not.toBe("shard");
  });

  it("updates only a comment the workflow's own bot wrote: a marker planted by anyone else is left alone", async () => {
    const script = String(commentJob()[1].steps.find((s) => s.uses?.startsWith("actions/github-script"))!.with!.script);
    const bot = { login: "github-actions[bot]", type: "Bot" };
    const planted = { id: 1, body: `first! ${PR_COMMENT_MARKER}`, user: { login: "mallory", type: "User" } };
    const otherBot = { id: 2, body: PR_COMMENT_MARKER, user: { login: "evil-app[bot]", type: "Bot" } };
    const fakeBot = { id: 3, body: PR_COMMENT_MARKER, user: { login: "github-actions[bot]", type: "User" } };
    const ours = { id: 4, body: `${PR_COMMENT_MARKER}\nold table`, user: bot };
    expect(await runCommentScript(script, [planted, otherBot, fakeBot, ours])).toMatchObject({ updated: 4 });
    expect(await runCommentScript(script, [planted, otherBot, fakeBot])).toEqual({
      created: true,
      body: `${PR_COMMENT_MARKER}\n| gate |`,
      read: "merged/summary.md",
    });
    expect(
      await runCommentScript(script, [
        { id: 5, body: "lgtm", user: bot },
        { id: 6, body: PR_COMMENT_MARKER, user: null },
      ]),
    ).toMatchObject({ created: true });
  });

  it("no permission by default; read-only contents for the jobs that run the pull request's code; pull-requests: write only where it comments", () => {
    expect(wf.permissions).toEqual({});
    const [commenter] = commentJob();
    for (const [name, job] of Object.entries(wf.jobs)) {
      expect(typeof job.permissions, name).toBe("object");
      const perms = job.permissions as Record<string, string>;
      if (name === commenter) {
        expect(perms, name).toEqual({ "pull-requests": "write" });
        // it runs nothing from the pull request: no checkout, no npm
        expect(job.steps.some((s) => s.uses?.startsWith("actions/checkout") || /\bnpm\b/.test(s.run ?? ""))).toBe(false);
      } else {
        expect(perms, name).toEqual({ contents: "read" });
      }
    }
    expect(wf.jobs.shard!.permissions).toEqual({ contents: "read" });
  });

  it("every checkout drops its credentials (persist-credentials: false)", () => {
    const checkouts = Object.values(wf.jobs).flatMap((j) => j.steps.filter((s) => s.uses?.startsWith("actions/checkout")));
    expect(checkouts.length).toBeGreaterThanOrEqual(2);
    for (const c of checkouts) expect(c.with?.["persist-credentials"]).toBe(false);
  });
});
