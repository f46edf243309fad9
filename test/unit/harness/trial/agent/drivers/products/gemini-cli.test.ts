import { describe, expect, it } from "vitest";
import {
  geminiArgv,
  geminiCliSettings,
  geminiEnv,
  HARNESS_SETTINGS,
  mergeSettings,
  policyToml,
  runResult,
} from "../../../../../../../harness/trial/agent/drivers/products/gemini-cli.ts";

describe("Gemini CLI's command line", () => {
  const settings = { approvalMode: "auto_edit", settings: {}, policy: [] };

  it("puts the settings file into the product's home, then runs the bundle with the sandbox's node, the mode, and the instruction as one argument", () => {
    const argv = geminiArgv("@google/gemini-cli/bundle/gemini.js", "-rf everything", settings);
    expect(argv.slice(0, 2)).toEqual(["/bin/sh", "-c"]);
    expect(argv[2]).toBe(
      'mkdir -p "$GEMINI_CLI_HOME/.gemini" && cp /opt/gatebench/endpoint/gemini-settings.json "$GEMINI_CLI_HOME/.gemini/settings.json" && exec "$@"',
    );
    expect(argv.slice(4, 6)).toEqual(["/usr/bin/node", "/opt/gatebench/product/@google/gemini-cli/bundle/gemini.js"]);
    expect(argv[argv.indexOf("--approval-mode") + 1]).toBe("auto_edit");
    expect(argv[argv.indexOf("--model") + 1]).toBe("gatebench-scripted");
    expect(argv[argv.indexOf("--output-format") + 1]).toBe("stream-json");
    expect(argv.at(-1)).toBe("--prompt=-rf everything");
    expect(argv).not.toContain("--policy");
  });

  it("gives the policy file only when the configuration has rules", () => {
    const argv = geminiArgv("b", "x", { ...settings, policy: [{ toolName: "run_shell_command", decision: "deny", priority: 1 }] });
    expect(argv[argv.indexOf("--policy") + 1]).toBe("/opt/gatebench/endpoint/gemini-policy.toml");
  });

  it("points the product at the forwarder with a placeholder key, and keeps its home and temporary files out of the world", () => {
    const env = geminiEnv();
    expect(env).toMatchObject({ GOOGLE_GEMINI_BASE_URL: "http://127.0.0.1:8765", GEMINI_API_KEY: "gatebench-endpoint", GEMINI_CLI_NO_RELAUNCH: "true" });
    expect(env.GEMINI_CLI_HOME).toBe("/opt/gatebench/product-state");
    expect(env.TMPDIR).not.toMatch(/^\/tmp/);
  });
});

describe("the settings file", () => {
  it("the harness's settings select the API key and switch off what reaches out", () => {
    expect(HARNESS_SETTINGS).toMatchObject({
      security: { auth: { selectedType: "gemini-api-key" } },
      telemetry: { enabled: false },
      privacy: { usageStatisticsEnabled: false },
      general: { enableAutoUpdate: false },
      ide: { enabled: false },
    });
  });

  it("a configuration's values are merged key by key over the harness's (theirs win; arrays are replaced)", () => {
    const merged = mergeSettings(HARNESS_SETTINGS, { security: { folderTrust: { enabled: true } }, tools: { exclude: [] }, hooks: { BeforeTool: [] } });
    expect(merged.security).toEqual({ auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: true } });
    expect((merged.tools as Record<string, unknown>).exclude).toEqual([]);
    expect((merged.tools as Record<string, unknown>).disableLLMCorrection).toBe(true);
    expect(merged.hooks).toEqual({ BeforeTool: [] });
  });

  it("the gate's settings split into the approval mode, the settings and the policy rules", () => {
    expect(geminiCliSettings({ permissionMode: "yolo", settings: { settings: { a: 1 }, policy: [{ toolName: "x" }] } })).toEqual({
      approvalMode: "yolo",
      settings: { a: 1 },
      policy: [{ toolName: "x" }],
    });
    expect(geminiCliSettings({ permissionMode: "default", settings: {} })).toEqual({ approvalMode: "default", settings: {}, policy: [] });
  });
});

describe("the policy file", () => {
  it("is one [[rule]] table per rule, strings quoted, lists as arrays", () => {
    expect(
      policyToml([
        { toolName: "run_shell_command", commandPrefix: ["rm -rf", 'say "hi"'], decision: "deny", priority: 500 },
        { toolName: ["write_file", "replace"], decision: "allow", priority: 1, interactive: false },
      ]),
    ).toBe(
      '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ["rm -rf", "say \\"hi\\""]\ndecision = "deny"\npriority = 500\n\n[[rule]]\ntoolName = ["write_file", "replace"]\ndecision = "allow"\npriority = 1\ninteractive = false\n',
    );
    expect(policyToml([])).toBe("");
    expect(() => policyToml([{ toolName: { a: 1 } }])).toThrow(/policy rule field toolName/);
  });
});

describe("how the run ended, from the stream-json result event", () => {
  it("its status, and its error when it failed; nothing when no result was printed", () => {
    expect(runResult('{"type":"init"}\n{"type":"result","status":"success","stats":{}}\n')).toEqual({ status: "success" });
    expect(runResult('{"type":"result","status":"error","error":{"type":"Error","message":"quota"}}\n')).toEqual({ status: "error", error: "quota" });
    expect(runResult('{"type":"resu')).toBeUndefined();
  });
});
