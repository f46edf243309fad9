/**
 * The contracts between wings are types, not strings (docs/architecture.md, "Events and codes"
 * and "Roles in the registries"). Over every source file of kernel/, gates/, harness/ and
 * scripts/ (tests excluded, comments stripped):
 * - no module but harness/model/record/events.ts compares an event's `type` with a string: the
 *   others read the log through `eventsOf`, `isEvent` and typed handlers;
 * - no module but kernel/codes.ts (and kernel/timing.ts, whose list it extends) compares a code
 *   with a block code's string, or lists block codes in a set of its own;
 * - the baseline gate is named only by gates/config-entry.ts (`BASELINE_GATE`), never as a
 *   literal `"none"` where a gate is meant;
 * - no simulated user is named by a string literal outside harness/trial/approvers/, where each
 *   is defined with the roles it holds.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BLOCK_CODES } from "../../../kernel/codes.ts";
import { TRIAL_EVENT_TYPES } from "../../../harness/model/record/events.ts";
import { APPROVER_NAMES } from "../../../harness/trial/approvers/registry.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SCANNED = ["kernel", "gates", "harness", "scripts"];

/** Where each rule's strings are defined: the one place they may be compared. */
const EVENTS_MODULE = "harness/model/record/events.ts";
const CODE_MODULES = ["kernel/codes.ts", "kernel/timing.ts"];
/** The sandbox helper's own protocol answers `timeout` for a request it gave up on: a protocol code, not a block code. */
const HELPER_PROTOCOL = ["harness/sandbox/world/world.ts", "harness/sandbox/world/measurer.ts", "harness/sandbox/world/gate-runner.ts"];
const GATES_REGISTRY = "gates/config-entry.ts";
const APPROVERS_DIR = "harness/trial/approvers/";

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (n === "node_modules") return [];
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** Comments explain; only code compares. */
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

const sources = SCANNED.flatMap((d) => walk(join(ROOT, d)))
  .filter((f) => /\.(ts|mts)$/.test(f) && !/\.test\.ts$/.test(f))
  .map((f) => ({ file: relative(ROOT, f), text: stripComments(readFileSync(f, "utf8")) }));

const alt = (words: readonly string[]) => words.map((w) => w.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")).join("|");

/** Each line of `text` a pattern matches, as `file:line: text`. */
function hits(file: string, text: string, patterns: readonly RegExp[]): string[] {
  return text.split("\n").flatMap((line, i) => (patterns.some((p) => p.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

/** A string literal of one of `words`, compared with a property or a name, or a `case` label. */
function comparisons(words: readonly string[], subject: string): RegExp[] {
  const lit = `(["'\`])(?:${alt(words)})\\1`;
  return [new RegExp(`\\b${subject}\\s*[!=]==?\\s*${lit}`), new RegExp(`${lit}\\s*[!=]==?\\s*[\\w.?!]*\\b${subject}\\b`), new RegExp(`\\bcase\\s+${lit}\\s*:`)];
}

const EVENT_RULE = comparisons(TRIAL_EVENT_TYPES, "type");
const CODE_RULE = [...comparisons(BLOCK_CODES, "code"), new RegExp(`new Set\\(\\[\\s*(["'\`])(?:${alt(BLOCK_CODES)})\\1`)];
const BASELINE_RULE = [/gate(?!bench)[^\n]*(["'`])none\1|(["'`])none\2[^\n]*gate(?!bench)|`none`/i];
const USER_RULE = [new RegExp(`(?<!class=)(["'\`])(?:${alt(APPROVER_NAMES)})\\1`), new RegExp(`<code>(?:${alt(APPROVER_NAMES)})</code>`)];

describe("contracts between wings are typed, not strings", () => {
  it("finds what it looks for (the rules match the forms they forbid)", () => {
    expect(TRIAL_EVENT_TYPES).toContain("tool_requested");
    expect(BLOCK_CODES).toContain("integrity_violation");
    expect(APPROVER_NAMES).toContain("headless");
    expect(hits("x.ts", 'if (e.type === "tool_requested") {}', EVENT_RULE)).toHaveLength(1);
    expect(hits("x.ts", '  case "hidden_test":', EVENT_RULE)).toHaveLength(1);
    expect(hits("x.ts", 'd.code !== "integrity_violation"', CODE_RULE)).toHaveLength(1);
    expect(hits("x.ts", 'const B = new Set(["hook_error", "hook_timeout"]);', CODE_RULE)).toHaveLength(1);
    expect(hits("x.ts", 'rows.filter((r) => r.gate !== "none")', BASELINE_RULE)).toHaveLength(1);
    expect(hits("x.ts", 'loadGateConfig("none")', BASELINE_RULE)).toHaveLength(1);
    expect(hits("x.ts", 'hp("rubber-stamp")', USER_RULE)).toHaveLength(1);
    expect(hits("x.ts", 'token_source: "none"', BASELINE_RULE)).toHaveLength(0);
    expect(sources.length).toBeGreaterThan(100);
  });

  it("no event type is compared as a string outside the union's module", () => {
    const found = sources.filter((s) => s.file !== EVENTS_MODULE).flatMap((s) => hits(s.file, s.text, EVENT_RULE));
    expect(found).toEqual([]);
  });

  it("no block code is compared or listed as a string outside kernel/codes.ts", () => {
    const found = sources.filter((s) => ![...CODE_MODULES, EVENTS_MODULE, ...HELPER_PROTOCOL].includes(s.file)).flatMap((s) => hits(s.file, s.text, CODE_RULE));
    expect(found).toEqual([]);
  });

  it("the baseline gate is named only by the configurations' registry", () => {
    const found = sources.filter((s) => s.file !== GATES_REGISTRY).flatMap((s) => hits(s.file, s.text, BASELINE_RULE));
    expect(found).toEqual([]);
  });

  it("no simulated user is named by a literal outside the users' registry", () => {
    const found = sources.filter((s) => !s.file.startsWith(APPROVERS_DIR)).flatMap((s) => hits(s.file, s.text, USER_RULE));
    expect(found).toEqual([]);
  });
});
