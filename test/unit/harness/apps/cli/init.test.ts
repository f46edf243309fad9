/**
 * `gatebench init` (harness/apps/cli/init.ts) writes the starter files into a repository and
 * never overwrites one without --force; what it writes is sound: the workflow passes GitHub's
 * own workflow parser and the structural checks of test/support/workflow.ts with the same
 * least-privilege design as this repository's workflow, its comment script updates only the
 * bot's own comment, and the gate configuration loads from another folder with its hook
 * resolved next to it. (That the example task validates and the stack runs: test/e2e.)
 */
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadGateConfig } from "../../../../../gates/config.ts";
import { InputError } from "../../../../../kernel/errors.ts";
import { starterFiles, writeStarter } from "../../../../../harness/apps/cli/init.ts";
import { PR_COMMENT_MARKER } from "../../../../../harness/run/report/views/markdown.ts";
import { lintWorkflow, runCommentScript, workflowSchemaErrors, workflowStructureProblems, type Workflow } from "../../../../support/workflow.ts";

const repo = () => mkdtempSync(join(tmpdir(), "gatebench-init-"));

const TREE = [
  ".github/workflows/gatebench.yml",
  "gatebench/gates/my-hook.mjs",
  "gatebench/gates/my-stack.yaml",
  "gatebench/tasks/example_stale_build/personas/careful.yaml",
  "gatebench/tasks/example_stale_build/personas/careless.yaml",
  "gatebench/tasks/example_stale_build/reference.yaml",
  "gatebench/tasks/example_stale_build/setup.sh",
  "gatebench/tasks/example_stale_build/task.yaml",
  "gatebench/tasks/example_stale_build/tests/test.sh",
];

describe("gatebench init", () => {
  it("writes the starter tree, scripts executable, the workflow pinned to this gatebench's version", () => {
    const dir = repo();
    const files = writeStarter(dir, { version: "9.8.7" });
    expect(files.map((f) => f.path).sort()).toEqual(TREE);
    for (const f of ["gatebench/gates/my-hook.mjs", "gatebench/tasks/example_stale_build/setup.sh", "gatebench/tasks/example_stale_build/tests/test.sh"])
      expect(statSync(join(dir, f)).mode & 0o755, f).toBe(0o755);
    expect(statSync(join(dir, "gatebench/tasks/example_stale_build/task.yaml")).mode & 0o777).toBe(0o644);
    const wf = parse(readFileSync(join(dir, ".github/workflows/gatebench.yml"), "utf8")) as Workflow;
    expect(wf.env?.GATEBENCH_VERSION).toBe("9.8.7");
    expect(readFileSync(join(dir, ".github/workflows/gatebench.yml"), "utf8")).not.toContain("@@");
  });

  it("refuses to overwrite any existing file, names it and writes nothing; --force overwrites", () => {
    const dir = repo();
    mkdirSync(join(dir, ".github/workflows"), { recursive: true });
    writeFileSync(join(dir, ".github/workflows/gatebench.yml"), "mine\n");
    const e = (() => {
      try {
        writeStarter(dir);
      } catch (err) {
        return err as InputError;
      }
      throw new Error("no error");
    })();
    expect(e).toBeInstanceOf(InputError);
    expect(e.message).toContain(".github/workflows/gatebench.yml");
    expect(e.message).toContain("--force");
    expect(readFileSync(join(dir, ".github/workflows/gatebench.yml"), "utf8")).toBe("mine\n");
    expect(() => statSync(join(dir, "gatebench"))).toThrow();
    writeStarter(dir, { force: true });
    expect(readFileSync(join(dir, ".github/workflows/gatebench.yml"), "utf8")).toContain("gatebench eval");
  });

  it("the gate configuration loads from anywhere: its hook is found next to it, not in the cwd", () => {
    const dir = repo();
    writeStarter(dir);
    const config = loadGateConfig(`mine=${join(dir, "gatebench/gates/my-stack.yaml")}`);
    expect(config.name).toBe("mine");
    expect(config.layerKinds).toEqual(["path-policy", "claude-hook"]);
    // the hook's script next to the configuration, and the program that runs it as the PATH finds it
    expect(config.layers[1]!.sources?.files).toContain(join(dir, "gatebench/gates/my-hook.mjs"));
    expect(config.layers[1]!.sources?.files.every((f) => f === join(dir, "gatebench/gates/my-hook.mjs") || !f.startsWith(dir))).toBe(true);
  });
});

describe("the workflow init writes", () => {
  const text = starterFiles("1.2.3").find((f) => f.path === ".github/workflows/gatebench.yml")!.text;
  const wf = parse(text) as Workflow;

  it("passes GitHub's own workflow parser and the structural checks (needs, steps, permissions, no spliced input)", () => {
    lintWorkflow(text, "gatebench.yml");
  });

  it("runs gatebench eval on the repository's gates and tasks, after installing the sandbox's prerequisites", () => {
    const steps = wf.jobs.eval!.steps;
    const at = (re: RegExp) => steps.findIndex((s) => re.test(s.run ?? ""));
    expect(wf.jobs.eval!["runs-on"]).toBe("ubuntu-24.04");
    expect(at(/apt-get install -y bubblewrap rsync/)).toBeGreaterThanOrEqual(0);
    expect(at(/sysctl -w kernel\.apparmor_restrict_unprivileged_userns=0/)).toBeGreaterThanOrEqual(0);
    const install = at(/npm install .*gatebench@\$GATEBENCH_VERSION/);
    const evaluate = at(/gatebench" eval/);
    expect(install).toBeGreaterThan(at(/sysctl/));
    expect(evaluate).toBeGreaterThan(install);
    expect(steps[evaluate]!.run).toContain("mine=gatebench/gates/my-stack.yaml");
    expect(steps[evaluate]!.run).toContain("--tasks-dir gatebench/tasks");
    expect(steps.some((s) => s.uses?.startsWith("actions/upload-artifact") && String(s.with?.path).includes("report.html"))).toBe(true);
  });

  it("least privilege: none by default, contents: read where PR code runs, pull-requests: write only in a comment job that runs none", () => {
    expect(wf.permissions).toEqual({});
    expect(wf.jobs.eval!.permissions).toEqual({ contents: "read" });
    const comment = wf.jobs.comment!;
    expect(comment.permissions).toEqual({ "pull-requests": "write" });
    expect([comment.needs].flat()).toEqual(["eval"]);
    expect(comment.steps.some((s) => s.uses?.startsWith("actions/checkout") || /\b(npm|npx|node|gatebench)\b/.test(s.run ?? ""))).toBe(false);
    const checkouts = Object.values(wf.jobs).flatMap((j) => j.steps.filter((s) => s.uses?.startsWith("actions/checkout")));
    expect(checkouts.length).toBeGreaterThan(0);
    for (const c of checkouts) expect(c.with?.["persist-credentials"]).toBe(false);
  });

  it("the sticky comment is found by the marker AND written by github-actions[bot]; a planted marker is left alone", async () => {
    const script = String(wf.jobs.comment!.steps.find((s) => s.uses?.startsWith("actions/github-script"))!.with!.script);
    expect(script).toContain(PR_COMMENT_MARKER);
    const table = `${PR_COMMENT_MARKER}\n| gate |`;
    const bot = { login: "github-actions[bot]", type: "Bot" };
    const planted = { id: 1, body: `hi ${PR_COMMENT_MARKER}`, user: { login: "mallory", type: "User" } };
    const fakeBot = { id: 3, body: PR_COMMENT_MARKER, user: { login: "github-actions[bot]", type: "User" } };
    const ours = { id: 4, body: `${PR_COMMENT_MARKER}\nold`, user: bot };
    expect(await runCommentScript(script, [planted, fakeBot, ours], table)).toMatchObject({ updated: 4, body: table, read: "gatebench-out/summary.md" });
    expect(await runCommentScript(script, [planted, fakeBot, { id: 5, body: "lgtm", user: bot }], table)).toMatchObject({ created: true });
  });
});

describe("the workflow checks themselves catch what they claim", () => {
  const good = starterFiles("1.2.3").find((f) => f.path === ".github/workflows/gatebench.yml")!.text;

  it("GitHub's parser: a wrong permission level, an unclosed expression, a step with both uses and run", () => {
    expect(workflowSchemaErrors(good.replace("contents: read", "contents: reed"))).toEqual([expect.stringContaining("Unexpected value 'reed'")]);
    expect(workflowSchemaErrors(good.replace("${{ steps.eval.outputs.exit }}", "${{ steps.eval.outputs.exit }"))).toEqual([
      expect.stringContaining("The expression is not closed"),
    ]);
    expect(workflowSchemaErrors(good.replace("      - uses: actions/setup-node@v4\n", "      - uses: actions/setup-node@v4\n        run: echo\n"))).not.toEqual(
      [],
    );
  });

  it("the structure: needs of a missing job, a cycle, an unknown scope, an input spliced into run", () => {
    const wf = parse(good) as Workflow;
    expect(workflowStructureProblems({ ...wf, jobs: { ...wf.jobs, comment: { ...wf.jobs.comment!, needs: "evil" } } })).toEqual([
      'job comment: needs "evil", which is no job',
    ]);
    expect(workflowStructureProblems({ ...wf, jobs: { ...wf.jobs, eval: { ...wf.jobs.eval!, needs: "comment" } } })).toEqual([
      "needs form a cycle: eval -> comment -> eval",
    ]);
    expect(workflowStructureProblems({ ...wf, permissions: { "pull-request": "write" } })).toEqual(['workflow: unknown permission scope "pull-request"']);
    const spliced = { ...wf.jobs.eval!, steps: [{ run: "echo ${{ github.event.pull_request.title }}" }] };
    expect(workflowStructureProblems({ ...wf, jobs: { ...wf.jobs, eval: spliced } })).toEqual([
      "job eval step 1: splices an untrusted expression into run (pass it through env:)",
    ]);
  });
});
