/**
 * report.html's one script and the policy that allows it (harness/run/report/views/page-script.ts): the
 * Content-Security-Policy names exactly the page's script by the SHA-256 of its text, in the page
 * renderHtml returns and in the file a run writes; still no request of any kind; the script is a
 * constant that never turns page text into HTML or code.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderHtml } from "../../../../../../harness/run/report/views/html.ts";
import { PAGE_SCRIPT, pagePolicy } from "../../../../../../harness/run/report/views/page-script.ts";
import { publishRun } from "../../../../../../harness/run/report/publishing/publish.ts";
import { RunOutput } from "../../../../../../harness/run/output/output.ts";
import { readPage } from "../../../../../support/html-doc.ts";
import { summaryOf, summaryRow, trialRecord } from "../../../../../support/report-fixtures.ts";

/** The policy's directives by name. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

/** Why the page's scripts would not all run under its policy (empty: they do, and nothing else may). */
function policyProblems(html: string): string[] {
  const page = readPage(html);
  const d = directives(page.policy);
  const allowed = d.get("script-src") ?? [];
  const problems: string[] = [];
  if (page.scripts.length !== 1) problems.push(`${page.scripts.length} scripts`);
  for (const s of page.scripts) {
    const source = `'sha256-${createHash("sha256").update(s, "utf8").digest("base64")}'`;
    if (!allowed.includes(source)) problems.push(`script ${source} not in script-src ${allowed.join(" ")}`);
  }
  if (allowed.length !== page.scripts.length) problems.push(`script-src allows ${allowed.join(" ")}`);
  return problems;
}

const html = renderHtml({
  summary: summaryOf([summaryRow({ gate: "none", approver: "-", approver_role: "none" }), summaryRow({ gate: "layered" })]),
  records: [trialRecord({ gate: "layered", approver: "fatigued" })],
  events: new Map(),
  approvals: [],
});

describe("report.html's Content-Security-Policy", () => {
  it("allows exactly the page's one script, by the SHA-256 of its text", () => {
    expect(readPage(html).scripts).toEqual([PAGE_SCRIPT]);
    expect(policyProblems(html)).toEqual([]);
  });

  it("a script that changed without its hash would not run: the check sees it", () => {
    expect(policyProblems(html.replace(PAGE_SCRIPT, `${PAGE_SCRIPT}\n`))).toEqual([expect.stringMatching(/^script 'sha256-.*' not in script-src/)]);
    expect(policyProblems(html.replace("</body>", "<script>alert(1)</script></body>"))).toContain("2 scripts");
  });

  it("holds in the report.html a run writes, after redaction and escaping", () => {
    const dir = mkdtempSync(join(tmpdir(), "gatebench-csp-"));
    publishRun({ output: new RunOutput(dir), runId: "r", records: [trialRecord({ trial_id: "a" })], meta: {}, stepSummaryFile: undefined });
    expect(policyProblems(readFileSync(join(dir, "report.html"), "utf8"))).toEqual([]);
  });

  it("still allows no request of any kind, no inline script but the hashed one, no eval, and Trusted Types", () => {
    const d = directives(readPage(html).policy);
    expect(d.get("default-src")).toEqual(["'none'"]);
    expect(d.get("connect-src")).toEqual(["'none'"]);
    expect(d.get("form-action")).toEqual(["'none'"]);
    expect(d.get("base-uri")).toEqual(["'none'"]);
    expect(d.get("script-src")).toHaveLength(1);
    expect(d.get("script-src")![0]).toMatch(/^'sha256-[A-Za-z0-9+/]{43}='$/);
    expect(d.get("require-trusted-types-for")).toEqual(["'script'"]);
    expect(pagePolicy()).toBe(readPage(html).policy);
  });
});

describe("the page script", () => {
  it("never turns text into HTML or code, never fetches, never navigates", () => {
    for (const sink of [
      /innerHTML/,
      /outerHTML/,
      /insertAdjacentHTML/,
      /document\.write/,
      /\beval\b/,
      /\bFunction\(/,
      /setTimeout\(\s*["'`]/,
      /\bfetch\b/,
      /XMLHttpRequest/,
      /location/,
      /\bsrc\b/,
      /href/,
      /import\(/,
    ])
      expect(PAGE_SCRIPT).not.toMatch(sink);
  });

  it("changes only what the harness wrote: hidden, aria-sort, tabIndex, row order and counts as text", () => {
    const writes = [...PAGE_SCRIPT.matchAll(/\.(\w+)\s*=[^=]/g)].map((m) => m[1]);
    expect(new Set(writes)).toEqual(new Set(["hidden", "textContent", "tabIndex"]));
    const attributes = [...PAGE_SCRIPT.matchAll(/setAttribute\("([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(attributes)).toEqual(new Set(["aria-sort"]));
  });

  it("no element of the page has an event handler attribute or a script URL", () => {
    for (const el of readPage(html).all) {
      for (const [name, value] of Object.entries(el.attrs)) {
        expect(name, el.name).not.toMatch(/^on/i);
        expect(value.trim(), `${el.name} ${name}`).not.toMatch(/^(javascript|data|vbscript):/i);
      }
    }
  });
});
