/**
 * Checks of GitHub workflow and action files without GitHub: GitHub's own parser
 * (@actions/workflow-parser, the schema the Actions service and its language server use:
 * unknown keys, wrong types, unclosed `${{ }}` expressions, missing required properties) plus
 * structural rules it does not check (what actionlint would: `needs` naming jobs that exist and
 * no cycle, each step with exactly one of `uses`/`run`, permission scopes and levels, no `${{ }}`
 * of untrusted inputs spliced into a `run:` script), and a runner for a workflow's
 * github-script against a fake API.
 */
import { NoOperationTraceWriter, parseWorkflow } from "@actions/workflow-parser";
import { parseAction } from "@actions/workflow-parser/actions/index";
import { expect } from "vitest";
import { parse } from "yaml";

export type Step = { uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, unknown>; if?: string; name?: string; id?: string };
export type Job = {
  needs?: string | string[];
  "runs-on": string;
  permissions?: Record<string, string> | string;
  strategy?: { matrix: Record<string, unknown[]> };
  steps: Step[];
  if?: string;
};
export type Workflow = { on: unknown; permissions?: Record<string, string> | string; jobs: Record<string, Job>; env?: Record<string, unknown> };

/** The scopes a `permissions:` block may name, and the levels. */
const SCOPES = new Set([
  "actions",
  "attestations",
  "checks",
  "contents",
  "deployments",
  "discussions",
  "id-token",
  "issues",
  "models",
  "packages",
  "pages",
  "pull-requests",
  "repository-projects",
  "security-events",
  "statuses",
]);
const LEVELS = new Set(["read", "write", "none"]);

/** Expressions whose value an outsider controls: never spliced into a script (use env:). */
const UNTRUSTED = /\$\{\{[^}]*\b(github\.event\.(pull_request|issue|comment|review|head_commit|commits)|github\.head_ref|inputs\.)/;

/** Every problem GitHub's parser finds in a workflow, as "file (Line: n, Col: m): message". */
export function workflowSchemaErrors(text: string, name = "workflow.yml"): string[] {
  const r = parseWorkflow({ name, content: text }, new NoOperationTraceWriter());
  return r.context.errors.getErrors().map((e) => e.message);
}

/** Every problem GitHub's parser finds in an action.yml. */
export function actionSchemaErrors(text: string, name = "action.yml"): string[] {
  const r = parseAction({ name, content: text }, new NoOperationTraceWriter());
  return r.context.errors.getErrors().map((e) => e.message);
}

function permissionProblems(where: string, p: unknown): string[] {
  if (p === undefined) return [];
  if (typeof p === "string") return ["read-all", "write-all"].includes(p) ? [] : [`${where}: permissions "${p}" is not read-all, write-all or a map`];
  if (typeof p !== "object" || p === null) return [`${where}: permissions must be a map`];
  return Object.entries(p).flatMap(([scope, level]) => [
    ...(SCOPES.has(scope) ? [] : [`${where}: unknown permission scope "${scope}"`]),
    ...(LEVELS.has(String(level)) ? [] : [`${where}: permission ${scope} has level "${String(level)}", not read, write or none`]),
  ]);
}

/** The structural rules above; [] when the workflow keeps them all. */
export function workflowStructureProblems(wf: Workflow): string[] {
  const problems: string[] = [];
  if (wf.on === undefined) problems.push("no `on:` trigger");
  if (!wf.jobs || typeof wf.jobs !== "object" || Object.keys(wf.jobs).length === 0) return [...problems, "no jobs"];
  problems.push(...permissionProblems("workflow", wf.permissions));
  const names = Object.keys(wf.jobs);
  for (const [name, job] of Object.entries(wf.jobs)) {
    if (!job["runs-on"]) problems.push(`job ${name}: no runs-on`);
    if (!Array.isArray(job.steps) || job.steps.length === 0) problems.push(`job ${name}: no steps`);
    problems.push(...permissionProblems(`job ${name}`, job.permissions));
    for (const n of [job.needs ?? []].flat()) if (!names.includes(n)) problems.push(`job ${name}: needs "${n}", which is no job`);
    const ids = new Set<string>();
    (job.steps ?? []).forEach((s, i) => {
      const where = `job ${name} step ${i + 1}${s.name ? ` (${s.name})` : ""}`;
      if ((s.uses === undefined) === (s.run === undefined)) problems.push(`${where}: needs exactly one of uses and run`);
      if (s.uses !== undefined && !/^(\.\/|docker:\/\/|[\w.-]+\/[\w.-]+(\/[^@]+)?@\S+$)/.test(s.uses)) problems.push(`${where}: uses "${s.uses}" has no @ref`);
      if (s.run !== undefined && UNTRUSTED.test(s.run)) problems.push(`${where}: splices an untrusted expression into run (pass it through env:)`);
      if (s.id) {
        if (ids.has(s.id)) problems.push(`${where}: step id "${s.id}" used twice`);
        ids.add(s.id);
      }
    });
  }
  // needs must not form a cycle
  const visiting = new Set<string>();
  const done = new Set<string>();
  const visit = (n: string, path: string[]): void => {
    if (done.has(n)) return;
    if (visiting.has(n)) {
      problems.push(`needs form a cycle: ${[...path, n].join(" -> ")}`);
      return;
    }
    visiting.add(n);
    for (const m of [wf.jobs[n]?.needs ?? []].flat()) if (names.includes(m)) visit(m, [...path, n]);
    visiting.delete(n);
    done.add(n);
  };
  for (const n of names) visit(n, []);
  return problems;
}

/** Both checks over a workflow's text; returns the parsed workflow. */
export function lintWorkflow(text: string, name = "workflow.yml"): Workflow {
  expect(workflowSchemaErrors(text, name)).toEqual([]);
  const wf = parse(text) as Workflow;
  expect(workflowStructureProblems(wf)).toEqual([]);
  return wf;
}

export interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: string } | null;
}

/** Runs a workflow's github-script with a fake API over `comments` and `summary` as the file it reads; says which call it made. */
export async function runCommentScript(
  script: string,
  comments: FakeComment[],
  summary: string,
): Promise<{ updated?: number; created?: boolean; body?: string; read?: string }> {
  const out: { updated?: number; created?: boolean; body?: string; read?: string } = {};
  const listComments = () => undefined;
  const github = {
    paginate: async (fn: unknown) => (fn === listComments ? comments : []),
    rest: {
      issues: {
        listComments,
        updateComment: async (a: { comment_id: number; body: string }) => Object.assign(out, { updated: a.comment_id, body: a.body }),
        createComment: async (a: { body: string }) => Object.assign(out, { created: true, body: a.body }),
      },
    },
  };
  const context = { repo: { owner: "o", repo: "r" }, issue: { number: 7 } };
  const fakeRequire = (name: string) => {
    expect(name).toBe("fs");
    return {
      readFileSync: (file: string) => {
        out.read = file;
        return summary;
      },
    };
  };
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<unknown>;
  await new AsyncFunction("require", "github", "context", script)(fakeRequire, github, context);
  return out;
}
