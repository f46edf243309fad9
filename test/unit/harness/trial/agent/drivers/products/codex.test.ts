import { describe, expect, it } from "vitest";
import { codexArgv, codexEnv, modelCatalog, runEnd, tomlValue } from "../../../../../../../harness/trial/agent/drivers/products/codex.ts";

describe("Codex's command line", () => {
  const argv = codexArgv("bin/codex", "-rf everything", { sandbox: "workspace-write", config: { approval_policy: "on-request" } }, "/workspace");

  it("runs exec with the sandbox mode, the harness as the Responses provider, and the instruction after --", () => {
    expect(argv.slice(0, 3)).toEqual(["/opt/gatebench/product/bin/codex", "exec", "--json"]);
    expect(argv[argv.indexOf("--sandbox") + 1]).toBe("workspace-write");
    expect(argv.slice(-2)).toEqual(["--", "-rf everything"]);
    const c = argv.flatMap((a, i) => (argv[i - 1] === "-c" ? [a] : []));
    expect(c).toContain('approval_policy="on-request"');
    expect(c).toContain(
      'model_providers.gatebench={ name = "gatebench", base_url = "http://127.0.0.1:8765/v1", env_key = "GATEBENCH_CODEX_KEY", wire_api = "responses", request_max_retries = 0, stream_max_retries = 0 }',
    );
    expect(c).toContain("check_for_update_on_startup=false");
    expect(c).toContain("analytics.enabled=false");
  });

  it("a configuration's own values come after the harness's, so they win", () => {
    const own = codexArgv("b", "x", { sandbox: "read-only", config: { web_search: "live" } }, "/workspace");
    const c = own.flatMap((a, i) => (own[i - 1] === "-c" ? [a] : []));
    expect(c.lastIndexOf('web_search="live"')).toBeGreaterThan(c.indexOf('web_search="disabled"'));
  });

  it("keeps Codex's state out of the world and out of /tmp", () => {
    expect(codexEnv().CODEX_HOME).toBe("/opt/gatebench/product-state");
    expect(codexEnv().TMPDIR).not.toMatch(/^\/tmp/);
    expect(modelCatalog().models[0]).toMatchObject({ shell_type: "shell_command", apply_patch_tool_type: "freeform" });
  });
});

describe("TOML values", () => {
  it("quote strings and keys that need it, nest tables and arrays", () => {
    expect(tomlValue('a"b\n')).toBe('"a\\"b\\n"');
    expect(tomlValue([1, true, "x"])).toBe('[1, true, "x"]');
    expect(tomlValue({ "a.b": { c: [] } })).toBe('{ "a.b" = { c = [] } }');
  });

  it("refuse what TOML has no value for", () => {
    expect(() => tomlValue(null)).toThrow(/Codex config value/);
    expect(() => tomlValue(Number.NaN)).toThrow(/Codex config value/);
  });
});

describe("how Codex's run ended, from its JSONL events", () => {
  it("a completed turn, a failed one, a run cut short", () => {
    expect(runEnd('{"type":"thread.started"}\n{"type":"turn.completed","usage":{}}\n')).toEqual({ completed: true });
    expect(runEnd('{"type":"turn.failed","error":{"message":"stream disconnected"}}\n')).toEqual({ completed: false, error: "stream disconnected" });
    expect(runEnd('{"type":"turn.sta')).toEqual({ completed: false });
  });
});
