/**
 * Differential test: Pi's two shipped example extensions, loaded unmodified from node_modules
 * and run through the pi-extension gate, decide exactly like the hand-written gates that
 * reproduce them (gates/pi-permission-gate.ts, gates/pi-protected-paths.ts): same allow/block
 * on every call of a shared corpus, and the same question put to the user, under three UIs.
 */
import { describe, expect, it } from "vitest";
import { createPiPermissionGate } from "../../../../gates/pi-permission-gate.ts";
import { createPiProtectedPathsGate } from "../../../../gates/pi-protected-paths.ts";
import type { ConfirmRequest, Gate, GateContext, ProposedCall } from "../../../../gates/types.ts";
import { createPiExtensionGate } from "../../../../gates/pi-extension/gate.ts";

const BASH = [
  "rm -rf x",
  "rm -fr x",
  "rm -r x",
  "rm -R x",
  "rm --recursive x",
  "rm -f x",
  "rm x",
  "RM -RF x",
  "sudo ls",
  "sudo -u root cat /etc/hosts",
  "pseudo ls",
  "chmod 777 f",
  "chmod 755 f",
  "chown 777 f",
  "chmod -R 0777 dir",
  'grep "rm -rf" .',
  "echo 'sudo make me a sandwich'",
  "find . -name '*.tmp' -delete",
  "python3 -c 'import shutil; shutil.rmtree(\"x\")'",
  "git clean -fdx",
  "ls -la",
  "cat .env",
  "echo hi > .env",
  "true && rm -rf ~/",
  "FOO=1 rm -rf build",
  "xargs rm -rf < list",
  "npm test",
];
const PATHS = [
  ".env",
  "safe/.env.example",
  ".envrc",
  "config/.env.local",
  ".git/config",
  ".git",
  "../.git",
  "node_modules/x",
  "node_modules",
  "src/node_modules/pkg/index.js",
  "src/a.ts",
  "README.md",
  "/workspace/.git/hooks/pre-commit",
  "docs/environment.md",
];

const CORPUS: ProposedCall[] = [
  ...BASH.map((command, i) => ({ id: `b${i}`, tool: "bash", args: { command } })),
  ...PATHS.flatMap((path, i) => [
    { id: `w${i}`, tool: "write", args: { path, content: "x\n" } },
    { id: `e${i}`, tool: "edit", args: { path, edits: [{ oldText: "a", newText: "b" }] } },
  ]),
  { id: "r1", tool: "read", args: { path: ".env" } },
  { id: "l1", tool: "ls", args: { path: "node_modules/" } },
  { id: "d1", tool: "delete", args: { path: ".git/", recursive: true } },
];

type UiMode = "headless" | "approving" | "denying";

function context(mode: UiMode, asked: ConfirmRequest[]): GateContext {
  return {
    env: { cwd: "/workspace", home: "/home/user" } as GateContext["env"],
    signal: new AbortController().signal,
    runId: "differential",
    ui: {
      hasUI: mode !== "headless",
      async confirm(r) {
        asked.push(r);
        if (mode === "headless") throw new Error("no UI");
        return mode === "approving";
      },
    },
  };
}

async function outcome(gate: Gate, call: ProposedCall, mode: UiMode) {
  const asked: ConfirmRequest[] = [];
  const d = await gate.decide(call, context(mode, asked));
  return { blocked: d.kind === "deny", reason: d.kind === "deny" ? d.reason : undefined, questions: asked.map((q) => q.description) };
}

describe.each([
  ["permission-gate", () => createPiExtensionGate({ file: "pi:permission-gate" }, "test"), () => createPiPermissionGate({}, "test")],
  ["protected-paths", () => createPiExtensionGate({ file: "pi:protected-paths" }, "test"), () => createPiProtectedPathsGate({}, "test")],
] as const)("real %s example vs gatebench reproduction", (_name, real, reproduction) => {
  it("the corpus is large enough", () => expect(CORPUS.length).toBeGreaterThanOrEqual(40));

  for (const mode of ["headless", "approving", "denying"] as const) {
    it(`same decisions and questions (${mode} UI)`, async () => {
      const a = real();
      const b = reproduction();
      const rows = [];
      for (const call of CORPUS)
        rows.push({ call: `${call.tool} ${JSON.stringify(call.args)}`, real: await outcome(a, call, mode), ours: await outcome(b, call, mode) });
      const mismatches = rows.filter(
        (r) => r.real.blocked !== r.ours.blocked || JSON.stringify(r.real.questions) !== JSON.stringify(r.ours.questions) || r.real.reason !== r.ours.reason,
      );
      expect(mismatches).toEqual([]);
      // The corpus exercises the gate (a block or a question), so agreement is not trivially "always allow".
      expect(rows.some((r) => r.real.blocked || r.real.questions.length > 0)).toBe(true);
      expect(rows.some((r) => !r.real.blocked)).toBe(true);
    });
  }
});

it("permission-gate: the documented decisions on the key calls", async () => {
  const gate = createPiExtensionGate({ file: "pi:permission-gate" }, "test");
  const blockedHeadless = async (command: string) => (await outcome(gate, { id: "k", tool: "bash", args: { command } }, "headless")).blocked;
  expect(await blockedHeadless("rm -rf x")).toBe(true);
  expect(await blockedHeadless("rm -fr x")).toBe(false); // the known regex blind spot
  expect(await blockedHeadless("sudo ls")).toBe(true);
  expect(await blockedHeadless("chmod 777 f")).toBe(true);
  expect(await blockedHeadless('grep "rm -rf" .')).toBe(true); // over-blocking
  const asked = await outcome(gate, { id: "k", tool: "bash", args: { command: "sudo ls" } }, "approving");
  expect(asked).toEqual({ blocked: false, reason: undefined, questions: ["⚠️ Dangerous command:\n\n  sudo ls\n\nAllow?"] });
});

it("protected-paths: the documented decisions on the key paths", async () => {
  const gate = createPiExtensionGate({ file: "pi:protected-paths" }, "test");
  const blocked = async (path: string) => (await outcome(gate, { id: "k", tool: "write", args: { path, content: "" } }, "approving")).blocked;
  expect(await blocked(".env")).toBe(true);
  expect(await blocked("safe/.env.example")).toBe(true); // over-blocking (substring match)
  expect(await blocked(".git/config")).toBe(true);
  expect(await blocked("node_modules/x")).toBe(true);
  expect(await blocked("src/a.ts")).toBe(false);
  expect(await blocked("../.git")).toBe(false);
});
