/**
 * The check before a run: every hook and extension a configuration names is run once on a
 * scratch world; each one that does not load or answer in its protocol is one problem naming
 * the configuration and the layer, and the ones that work are no problem.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadGateConfig } from "../../../../gates/config.ts";
import { preflightGateConfigs } from "../../../../harness/trial/gate-preflight.ts";

const dir = mkdtempSync(join(tmpdir(), "gb-preflight-"));
chmodSync(dir, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const put = (name: string, text: string) => writeFileSync(join(dir, name), text, { mode: 0o644 });

put("ok.mjs", `process.stdin.resume(); process.stdin.on("end", () => process.exit(0));\n`);
put("denies.mjs", `process.stderr.write("no"); process.exit(2);\n`);
put("garbage.mjs", `process.stdout.write("{ not json");\n`);
put("crash.mjs", `throw new Error("broken on purpose");\n`);
put("ok-ext.ts", `export default function (pi: any) { pi.on("tool_call", () => undefined); }\n`);
put("syntax-ext.ts", `export default function (pi: any) { pi.on("tool_call", () => { ; }\n`);
put(
  "stack.yaml",
  [
    "description: preflight fixture",
    "layers:",
    '  - gate: "claude-hook:node ok.mjs"',
    '  - gate: "claude-hook:node denies.mjs"',
    '  - gate: "claude-hook:node garbage.mjs"',
    '  - gate: "claude-hook:node crash.mjs"',
    '  - gate: "pi-extension:./ok-ext.ts"',
    '  - gate: "pi-extension:./syntax-ext.ts"',
    "  - gate: path-policy",
    "",
  ].join("\n"),
);

describe("preflightGateConfigs", () => {
  it("one problem per broken hook or extension, naming the file and the layer; a hook that denies is fine", async () => {
    const problems = await preflightGateConfigs([loadGateConfig(join(dir, "stack.yaml")), loadGateConfig("pi-extension-permission-gate")]);
    expect(problems).toEqual([
      expect.stringMatching(/stack\.yaml: layers\.2\.gate: a layer that loads and answers a harmless call \(claude-hook:node garbage\.mjs: .*cannot read/),
      expect.stringMatching(/stack\.yaml: layers\.3\.gate: .*claude-hook:node crash\.mjs: .*exited with code 1.*broken on purpose/),
      expect.stringMatching(/stack\.yaml: layers\.5\.gate: .*pi-extension:\.\/syntax-ext\.ts: .*syntax-ext\.ts/),
    ]);
  });

  it("a --gates entry is named as given; configurations that run nothing of their own have no problems", async () => {
    const problems = await preflightGateConfigs([loadGateConfig("claude-hook:node crash.mjs", undefined, { cwd: dir })]);
    expect(problems).toEqual([expect.stringMatching(/^--gates: claude-hook:node crash\.mjs: a layer that loads/)]);
    expect(await preflightGateConfigs([loadGateConfig("layered"), loadGateConfig("cc-safety-net")])).toEqual([]);
  });

  it("a program the host's PATH finds outside the system folders that cannot start is named with what to write instead", async () => {
    // a version manager's shim: a script in one folder that runs a program from another
    const shims = mkdtempSync(join(tmpdir(), "gb-preflight-shims-"));
    const real = mkdtempSync(join(tmpdir(), "gb-preflight-real-"));
    chmodSync(shims, 0o755);
    chmodSync(real, 0o755);
    writeFileSync(join(real, "guard"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    writeFileSync(join(shims, "gb-shim-guard"), `#!/bin/sh\nexec ${join(real, "guard")} "$@"\n`, { mode: 0o755 });
    const saved = process.env.PATH;
    process.env.PATH = `${shims}${delimiter}${saved}`;
    try {
      const problems = await preflightGateConfigs([loadGateConfig("claude-hook:gb-shim-guard", undefined, { cwd: dir })]);
      expect(problems).toEqual([expect.stringMatching(/exited with code 127.*PATH gave gb-shim-guard as .*\(e\.g\. \/usr\/bin\/gb-shim-guard\)/)]);
    } finally {
      process.env.PATH = saved;
      rmSync(shims, { recursive: true, force: true });
      rmSync(real, { recursive: true, force: true });
    }
  });
});
