/**
 * Every command's --help (harness/apps/cli/help.ts, help-eval.ts) is built from the lists the
 * parsers use: every built-in configuration, every --gates form, every layer kind, every agent
 * form the driver registry accepts and every approver with its role appear, every option of a
 * command has its line, and each command has its own text.
 */
import { describe, expect, it } from "vitest";
import { GATE_ENTRY_FORMS, listGateConfigNames } from "../../../../../gates/config-entry.ts";
import { GATE_KINDS } from "../../../../../gates/kinds.ts";
import { GATE_LAYERS } from "../../../../../gates/registry.ts";
import { evalHelp } from "../../../../../harness/apps/cli/eval.ts";
import { mergeHelp } from "../../../../../harness/apps/cli/merge.ts";
import { storeHelp } from "../../../../../harness/apps/cli/store.ts";
import { explainHelp } from "../../../../../harness/apps/cli/explain.ts";
import { COMMANDS, topHelp } from "../../../../../harness/apps/cli/gatebench.ts";
import { AGENT_LINES, agentForms } from "../../../../../harness/apps/cli/help-eval.ts";
import { renderFlags } from "../../../../../harness/apps/cli/help.ts";
import { importHelp } from "../../../../../harness/apps/cli/import.ts";
import { historyHelp } from "../../../../../harness/apps/cli/history.ts";
import { initHelp } from "../../../../../harness/apps/cli/init.ts";
import { mockModelHelp } from "../../../../../harness/apps/cli/mock-model.ts";
import { mutateHelp } from "../../../../../harness/apps/cli/mutate.ts";
import { newTaskHelp } from "../../../../../harness/apps/cli/new-task.ts";
import { validateHelp } from "../../../../../harness/apps/cli/validate.ts";
import { parseAgentSelector } from "../../../../../harness/trial/agent/drivers/registry.ts";
import { APPROVER_NAMES, APPROVER_ROLES } from "../../../../../harness/trial/approvers/registry.ts";

const HELP: Record<string, () => string> = {
  eval: evalHelp,
  merge: mergeHelp,
  store: storeHelp,
  validate: validateHelp,
  explain: explainHelp,
  import: importHelp,
  mutate: mutateHelp,
  "new-task": newTaskHelp,
  init: initHelp,
  "mock-model": mockModelHelp,
  history: historyHelp,
};

describe("help texts", () => {
  const evalText = evalHelp();

  it("eval --help names every built-in configuration, every --gates form and every layer kind", () => {
    const names = listGateConfigNames();
    expect(names.length).toBeGreaterThan(10);
    for (const n of names) expect(evalText).toMatch(new RegExp(`^ {4}${n}\\b`, "m"));
    for (const f of GATE_ENTRY_FORMS) expect(evalText).toContain(f.form);
    for (const k of GATE_KINDS) expect(evalText).toContain(k);
    expect(evalText).toContain("claude-hook:<command>");
    expect(evalText).toContain("pi-extension:<file>");
    expect(evalText).toContain("<label>=");
    expect(evalText).toContain(".yaml");
  });

  it("the layer kinds help lists are the registry's, one for one", () => {
    expect([...GATE_KINDS].sort()).toEqual(GATE_LAYERS.map((l) => l.name).sort());
  });

  it("eval --help names every agent form the driver registry parses, each described, and the model variables", () => {
    const forms = agentForms();
    expect(forms).toEqual(expect.arrayContaining(["reference", "scripted", "scripted:<persona>", "mutants", "mutants:sample", "nop", "<provider>/<model>"]));
    for (const f of forms) {
      expect(AGENT_LINES[f], f).toBeTruthy();
      expect(evalText).toContain(`  ${f} `);
      // each form, filled in, is one the parser accepts
      expect(parseAgentSelector(f.replace("<persona>", "careless").replace("<provider>/<model>", "anthropic/claude-sonnet-4-5")), f).toBeDefined();
    }
    for (const v of ["openai-compatible/<model>", "GATEBENCH_BASE_URL", "GATEBENCH_API_KEY", "anthropic"]) expect(evalText).toContain(v);
  });

  it("eval --help names every approver with its role", () => {
    for (const a of APPROVER_NAMES) expect(evalText).toContain(`${a} (${APPROVER_ROLES[a]})`);
  });

  it("every option of a command has its line", () => {
    const options = { gates: { type: "string" }, json: { type: "boolean", short: "j" }, dir: { type: "string", multiple: true } } as const;
    const text = renderFlags(options, { gates: ["LIST", "which gates"], json: "as JSON", dir: ["DIR", "a folder"] });
    expect(text.split("\n")).toEqual([
      expect.stringMatching(/--gates LIST +which gates/),
      expect.stringMatching(/-j, --json +as JSON/),
      expect.stringMatching(/--dir DIR +a folder \(repeatable\)/),
    ]);
    for (const [name, help] of Object.entries(HELP)) {
      const text = help();
      expect(text, name).toMatch(/^usage: /);
      expect(text, name).toContain("-h, --help");
    }
    expect(evalText).toContain("--tasks-dir DIR");
    expect(mergeHelp()).toContain("--tasks-dir DIR");
    expect(validateHelp()).toContain("--tasks-dir DIR");
    expect(explainHelp()).toContain("--tasks-dir DIR");
  });

  it("each command has its own text, and the top-level help lists every command", () => {
    const texts = Object.values(HELP).map((h) => h());
    expect(new Set(texts).size).toBe(texts.length);
    expect(Object.keys(COMMANDS).sort()).toEqual(Object.keys(HELP).sort());
    for (const c of Object.keys(COMMANDS)) expect(topHelp()).toContain(`  ${c} `);
    expect(mergeHelp()).toMatch(/^usage: gatebench merge/);
    expect(mergeHelp()).not.toContain("--agents");
  });
});
