/**
 * The key variables gatebench names before a run (harness/trial/agent/drivers/provider-keys.ts)
 * are the ones pi-ai reads: each entry is checked against pi-ai's own `findEnvKeys`, and every
 * provider pi-ai knows has either a variable or a description of its credentials.
 */
import { findEnvKeys, getProviders } from "@mariozechner/pi-ai";
import { afterEach, describe, expect, it } from "vitest";
import { keyVariableHint, PROVIDER_CREDENTIALS, PROVIDER_KEY_VARS } from "../../../../../../harness/trial/agent/drivers/provider-keys.ts";

const ALL_VARS = [...new Set(Object.values(PROVIDER_KEY_VARS).flat())];
const saved = new Map(ALL_VARS.map((v) => [v, process.env[v]]));
afterEach(() => {
  for (const [v, value] of saved) {
    if (value === undefined) delete process.env[v];
    else process.env[v] = value;
  }
});

describe("provider key variables", () => {
  it("match pi-ai's mapping, variable by variable", () => {
    for (const [provider, vars] of Object.entries(PROVIDER_KEY_VARS)) {
      for (const v of ALL_VARS) delete process.env[v];
      expect(findEnvKeys(provider), provider).toBeUndefined();
      for (const v of vars) process.env[v] = "x";
      expect(findEnvKeys(provider), provider).toEqual(vars);
    }
  });

  it("every provider pi-ai knows has a variable or a description of its credentials", () => {
    const missing = getProviders().filter((p) => !PROVIDER_KEY_VARS[p] && !PROVIDER_CREDENTIALS[p]);
    expect(missing).toEqual([]);
  });

  it("names the plain key and GATEBENCH_API_KEY", () => {
    expect(keyVariableHint("anthropic")).toBe("ANTHROPIC_API_KEY (or GATEBENCH_API_KEY)");
    expect(keyVariableHint("openai")).toBe("OPENAI_API_KEY (or GATEBENCH_API_KEY)");
    expect(keyVariableHint("amazon-bedrock")).toMatch(/^AWS_PROFILE.*\(or GATEBENCH_API_KEY\)$/);
  });
});
