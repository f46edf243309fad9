/**
 * The recipes that take gatebench past one machine, checked by parsing them: the GitHub
 * workflow (.github/workflows/gatebench.yml) and the Kubernetes Indexed Job (deploy/k8s/).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseShard } from "../../../harness/cli/shard.ts";
import { PR_COMMENT_MARKER } from "../../../harness/report/markdown.ts";

const root = new URL("../../../", import.meta.url).pathname;
type Step = { uses?: string; run?: string; with?: Record<string, unknown>; if?: string; name?: string };
type Job = { needs?: string | string[]; "runs-on": string; strategy?: { matrix: Record<string, unknown[]> }; steps: Step[] };

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
    permissions: Record<string, string>;
    jobs: Record<string, Job>;
  };

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

  it("one sticky PR comment, found by gatebench's marker and updated in place", () => {
    const step = wf.jobs.merge!.steps.find((s) => s.uses?.startsWith("actions/github-script"))!;
    const script = String(step.with!.script);
    expect(script).toContain(PR_COMMENT_MARKER);
    expect(script).toContain("updateComment");
    expect(script).toContain("createComment");
    expect(wf.permissions["pull-requests"]).toBe("write");
  });
});

describe("deploy/k8s/gatebench-indexed-job.yaml", () => {
  const job = parse(readFileSync(`${root}deploy/k8s/gatebench-indexed-job.yaml`, "utf8")) as {
    kind: string;
    spec: { completionMode: string; completions: number; parallelism: number; template: { spec: Record<string, any> } };
  };

  it("is an Indexed Job whose completions equal the shard total, each pod's shard from JOB_COMPLETION_INDEX", () => {
    expect(job.kind).toBe("Job");
    expect(job.spec.completionMode).toBe("Indexed");
    const c = job.spec.template.spec.containers[0];
    const total = Number(c.env.find((e: { name: string }) => e.name === "SHARD_TOTAL").value);
    expect(job.spec.completions).toBe(total);
    expect(job.spec.parallelism).toBe(total);
    const args = (c.args as string[]).join(" ");
    for (let i = 0; i < total; i++) {
      const shard = /--shard\s+(\S+)/.exec(args.replace(/\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)/g, String(i + 1)).replace("${SHARD_TOTAL}", String(total)))![1]!;
      expect(parseShard(shard)).toEqual({ index: i + 1, count: total });
    }
  });

  it("runs unconfined by seccomp and AppArmor, which bubblewrap needs", () => {
    const c = job.spec.template.spec.containers[0];
    expect(c.securityContext.seccompProfile.type).toBe("Unconfined");
    expect(c.securityContext.appArmorProfile.type).toBe("Unconfined");
  });
});
