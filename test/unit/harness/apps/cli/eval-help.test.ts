/**
 * eval's help (harness/apps/cli/eval.ts evalHelp), and the help of history and mock-model: the
 * agent syntax, the providers, the environment variables, the record/replay/epochs flags and the
 * exit codes are written where a new user looks.
 */
import { getProviders } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { checkBareRecord, evalHelp } from "../../../../../harness/apps/cli/eval.ts";
import { historyHelp } from "../../../../../harness/apps/cli/history.ts";
import { mockModelHelp } from "../../../../../harness/apps/cli/mock-model.ts";
import { InputError } from "../../../../../kernel/errors.ts";

describe("eval --help", () => {
  const help = evalHelp();
  it("gives the agent syntax and every provider", () => {
    expect(help).toContain("<provider>/<model>");
    expect(help).toContain("openai-compatible/<model>");
    for (const p of getProviders()) expect(help).toContain(p);
  });

  it("names the environment variables and the provider key variables", () => {
    for (const v of ["GATEBENCH_BASE_URL", "GATEBENCH_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GATEBENCH_STORE"]) expect(help).toContain(v);
  });

  it("lists the record, replay and epochs flags and the exit codes", () => {
    for (const f of ["--epochs K", "--record DIR", "--replay DIR", "--record-personas", "--trials N"]) expect(help).toContain(f);
    expect(help).toMatch(/exit codes: 0 done, 1 .*, 2 bad input.*, 3 nothing was measured/s);
  });

  it("a bare --record (the old persona recording) is bad input pointing to --record DIR and --record-personas", () => {
    expect(() => checkBareRecord(["--record"])).toThrow(InputError);
    expect(() => checkBareRecord(["--record", "--out", "x"])).toThrow(/--record-personas/);
    expect(() => checkBareRecord(["--record", "cassette"])).not.toThrow();
  });
});

describe("history --help and mock-model --help", () => {
  it("say what the command reads and prints", () => {
    expect(historyHelp()).toMatch(/claude-code, pi, codex, inspect, atif/);
    expect(historyHelp()).toContain("wrong blocks");
    expect(mockModelHelp()).toContain("mock/careless-cleanup");
    expect(mockModelHelp()).toContain("mock/retries-around-block");
  });
});
