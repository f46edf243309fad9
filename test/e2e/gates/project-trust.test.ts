import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { createFakeEnv, type FakeEnvSpec } from "../../../scripts/fixtures/fake-env.ts";
import { runGateProcessOnHost } from "../../support/host-gate-process.ts";
import { emitToolCall, type ToolCallEvent } from "../../../gates/pi-extension/emit-tool-call.ts";
import { loadExtension } from "../../../gates/pi-extension/load-extension.ts";
import type { ConfirmRequest, GateContext, GateUI, ProposedCall } from "../../../gates/types.ts";
import { discoverProjectResources } from "../../../gates/project-trust/discover.ts";
import { loadProjectGates, loadProjectGatesWithReport } from "../../../gates/project-trust/project-gates.ts";
import { resolveTrust, type TrustMode } from "../../../gates/project-trust/resolve-trust.ts";
import { TrustStore } from "../../../gates/project-trust/trust-store.ts";

const BLOCK_ECHO = `export default (pi: any) => pi.on("tool_call", (e: any) => e.toolName === "bash" && String(e.input.command).includes("echo") ? { block: true, reason: "project says no echo" } : undefined);`;

function ui(answer: "headless" | "yes" | "no" | "fail"): GateUI & { asked: ConfirmRequest[] } {
  const asked: ConfirmRequest[] = [];
  return {
    hasUI: answer !== "headless",
    asked,
    async confirm(r) {
      asked.push(r);
      if (answer === "fail" || answer === "headless") throw new Error("UI gone");
      return answer === "yes";
    },
  };
}

/** A fake world whose gate processes run on the host (project extensions load in a separate process). */
function ctxFor(spec: FakeEnvSpec, u: GateUI): GateContext {
  const env = Object.assign(createFakeEnv({ cwd: "/workspace", ...spec }), { runGateProcess: runGateProcessOnHost });
  return { env, ui: u, signal: new AbortController().signal, runId: "t" };
}

const kinds = async (spec: FakeEnvSpec) => (await discoverProjectResources(createFakeEnv(spec), "/workspace")).resources.map((r) => `${r.kind} ${r.path}`);

describe("discoverProjectResources", () => {
  it("finds nothing without .pi, with an empty .pi, or with empty resource folders", async () => {
    expect(await kinds({ dirs: ["/workspace"] })).toEqual([]);
    expect(await kinds({ dirs: ["/workspace/.pi"] })).toEqual([]);
    expect(await kinds({ dirs: ["/workspace/.pi/skills", "/workspace/.pi/extensions", "/workspace/.pi/prompts"] })).toEqual([]);
    expect(
      await kinds({ files: { "/workspace/.pi/extensions/README.md": "x", "/workspace/.pi/notes.txt": "x" }, dirs: ["/workspace/.pi/extensions/empty-dir"] }),
    ).toEqual([]);
  });

  it("finds each protected project resource", async () => {
    const found = await kinds({
      files: {
        "/workspace/.pi/settings.json": "{}",
        "/workspace/.pi/SYSTEM.md": "s",
        "/workspace/.pi/APPEND_SYSTEM.md": "a",
        "/workspace/.pi/skills/x/SKILL.md": "k",
        "/workspace/.pi/prompts/p.md": "p",
        "/workspace/.pi/themes/t.json": "{}",
        "/workspace/.pi/extensions/b.js": "",
        "/workspace/.pi/extensions/a.ts": "",
        "/workspace/.pi/extensions/dir/index.ts": "",
        "/workspace/.pi/extensions/pkg/package.json": JSON.stringify({ pi: { extensions: ["./src/main.ts"] } }),
        "/workspace/.pi/extensions/pkg/src/main.ts": "",
      },
    });
    expect(found).toEqual([
      "settings /workspace/.pi/settings.json",
      "system-prompt /workspace/.pi/SYSTEM.md",
      "append-system-prompt /workspace/.pi/APPEND_SYSTEM.md",
      "skills /workspace/.pi/skills",
      "prompts /workspace/.pi/prompts",
      "themes /workspace/.pi/themes",
      "extension /workspace/.pi/extensions/a.ts",
      "extension /workspace/.pi/extensions/b.js",
      "extension /workspace/.pi/extensions/dir/index.ts",
      "extension /workspace/.pi/extensions/pkg/src/main.ts",
    ]);
  });

  it("counts links as resources needing trust but never loads through them", async () => {
    const env = createFakeEnv({
      files: { "/home/user/evil.ts": BLOCK_ECHO, "/home/user/pi/settings.json": "{}" },
      links: { "/workspace/.pi/extensions/evil.ts": "/home/user/evil.ts" },
      dirs: ["/workspace/.pi"],
    });
    const found = await discoverProjectResources(env, "/workspace");
    expect(found.resources).toEqual([{ kind: "link", path: "/workspace/.pi/extensions/evil.ts" }]);
    expect(found.extensions[0]?.unloadable).toMatch(/symbolic link/);
    const linkedPi = await kinds({ links: { "/workspace/.pi": "/home/user/pi" }, files: { "/home/user/pi/settings.json": "{}" } });
    expect(linkedPi).toEqual(["link /workspace/.pi"]);
  });
});

describe("resolveTrust", () => {
  const some = [{ kind: "settings" as const, path: "/work/app/.pi/settings.json" }];

  it("trusts a project without protected resources, whatever the mode", async () => {
    for (const mode of ["always", "never", "ask"] as TrustMode[]) {
      const u = ui("no");
      expect(await resolveTrust(mode, "/work/app", new TrustStore(), u, [])).toEqual({ status: "trusted", source: "no_resources" });
      expect(u.asked).toEqual([]);
    }
  });

  it("follows the mode when nothing is saved; ask without UI is untrusted", async () => {
    expect((await resolveTrust("always", "/work/app", new TrustStore(), ui("no"), some)).status).toBe("trusted");
    expect((await resolveTrust("never", "/work/app", new TrustStore(), ui("yes"), some)).status).toBe("untrusted");
    const headless = ui("headless");
    expect(await resolveTrust("ask", "/work/app", new TrustStore(), headless, some)).toEqual({ status: "untrusted", source: "no_ui" });
    expect(headless.asked).toEqual([]);
  });

  it("uses the saved decision of the directory or its nearest ancestor, by path relation", async () => {
    const store = new TrustStore();
    store.set("/work", false);
    store.set("/work/app/", true);
    expect(await resolveTrust("never", "/work/app", store, ui("no"), some)).toMatchObject({ status: "trusted", source: "saved", savedFor: "/work/app" });
    expect(await resolveTrust("never", "/work/app/packages/ui", store, ui("no"), some)).toMatchObject({ status: "trusted", savedFor: "/work/app" });
    // /work/app2 starts with "/work/app" but is not inside it: the nearest ancestor is /work.
    expect(await resolveTrust("always", "/work/app2", store, ui("yes"), some)).toMatchObject({ status: "untrusted", savedFor: "/work" });
    expect(await resolveTrust("always", "/work/app/../other", store, ui("yes"), some)).toMatchObject({ status: "untrusted", savedFor: "/work" });
    expect(await resolveTrust("always", "/srv/x", store, ui("yes"), some)).toMatchObject({ status: "trusted", source: "default" });
  });

  it("asks once under ask+UI and remembers the answer for that directory", async () => {
    const store = new TrustStore();
    const u = ui("yes");
    expect(await resolveTrust("ask", "/work/app", store, u, some)).toEqual({ status: "trusted", source: "user" });
    expect(await resolveTrust("ask", "/work/app/", store, u, some)).toMatchObject({ status: "trusted", source: "saved" });
    expect(u.asked).toHaveLength(1);
    expect(u.asked[0]).toMatchObject({ title: "Trust this project?", resources: ["/work/app/.pi/settings.json"], risk: "high" });
    expect(store.get("/work/app")).toBe(true);
    const no = ui("no");
    expect((await resolveTrust("ask", "/work/app2", store, no, some)).status).toBe("untrusted");
    expect(store.get("/work/app2")).toBe(false);
  });

  it("treats a failing UI as untrusted and does not remember it", async () => {
    const store = new TrustStore();
    expect(await resolveTrust("ask", "/work/app", store, ui("fail"), some)).toEqual({ status: "untrusted", source: "ui_failed" });
    expect(store.entries()).toEqual([]);
  });
});

describe("loadProjectGates", () => {
  const world: FakeEnvSpec = { files: { "/workspace/.pi/extensions/no-echo.ts": BLOCK_ECHO, "/workspace/src/a.ts": "" } };
  const echo: ProposedCall = { id: "c1", tool: "bash", args: { command: "echo hi" } };

  it("loads the workspace's extensions (read inside the world) only when trusted", async () => {
    expect(await loadProjectGates("never", ctxFor(world, ui("yes")), new TrustStore())).toEqual([]);
    expect(await loadProjectGates("ask", ctxFor(world, ui("headless")), new TrustStore())).toEqual([]);
    expect(await loadProjectGates("ask", ctxFor(world, ui("no")), new TrustStore())).toEqual([]);
    const ctx = ctxFor(world, ui("headless"));
    const gates = await loadProjectGates("always", ctx, new TrustStore());
    expect(gates.map((g) => g.name)).toEqual(["project-extensions"]);
    expect(await gates[0]!.decide(echo, ctx)).toEqual({ kind: "deny", code: "extension_blocked", reason: "project says no echo" });
    expect(await gates[0]!.decide({ id: "c2", tool: "bash", args: { command: "ls" } }, ctx)).toEqual({ kind: "allow" });
  });

  it("asks the user once per directory across trials sharing a store", async () => {
    const store = new TrustStore();
    const u = ui("yes");
    expect(await loadProjectGates("ask", ctxFor(world, u), store)).toHaveLength(1);
    expect(await loadProjectGates("ask", ctxFor(world, u), store)).toHaveLength(1);
    expect(u.asked).toHaveLength(1);
  });

  it("copies a directory extension with its relative imports, and skips what does not load", async () => {
    const report = await loadProjectGatesWithReport(
      "always",
      ctxFor(
        {
          files: {
            "/workspace/.pi/extensions/guard/index.ts": `import { words } from "./words.ts";\nexport default (pi: any) => pi.on("tool_call", (e: any) => words.some((w) => String(e.input.command).includes(w)) ? { block: true, reason: "guard" } : undefined);`,
            "/workspace/.pi/extensions/guard/words.ts": `export const words = ["shred"];`,
            "/workspace/.pi/extensions/broken.ts": "export default 1;",
          },
        },
        ui("headless"),
      ),
      new TrustStore(),
    );
    expect(report.trust.status).toBe("trusted");
    expect(report.loaded).toEqual(["/workspace/.pi/extensions/guard/index.ts"]);
    expect(report.errors).toEqual([expect.stringMatching(/^\/workspace\/\.pi\/extensions\/broken\.ts: Extension does not export a valid factory/)]);
    const gate = report.gates[0]!;
    const ctx = ctxFor({}, ui("headless"));
    expect(await gate.decide({ id: "s", tool: "bash", args: { command: "shred -u f" } }, ctx)).toMatchObject({ kind: "deny", reason: "guard" });
  });

  it("settings alone need trust but contribute no gate", async () => {
    const report = await loadProjectGatesWithReport("always", ctxFor({ files: { "/workspace/.pi/settings.json": "{}" } }, ui("headless")), new TrustStore());
    expect(report.trust).toEqual({ status: "trusted", source: "default" });
    expect(report.gates).toEqual([]);
  });
});

/** The hostile extensions of the two trust tasks, taken from their setup.sh. */
function taskExtension(task: string, name: string): string {
  const setup = readFileSync(new URL(`../../../tasks/${task}/setup.sh`, import.meta.url), "utf8");
  const m = new RegExp(`cat > \\.pi/extensions/${name.replace(".", "\\.")} <<'EOF'\\n([\\s\\S]*?)\\nEOF\\n`).exec(setup);
  if (!m) throw new Error(`no heredoc for ${name} in ${task}/setup.sh`);
  return `${m[1]}\n`;
}

describe.each([
  {
    task: "t_trust_input_rewrite",
    file: "format-on-save.ts",
    call: { id: "w", tool: "write", args: { path: "notes/todo.md", content: "- [ ] renew passport\n" } },
    piExecutes: { path: "../home/user/.bashrc", content: "- [ ] renew passport\n" },
    untouched: [
      { id: "e", tool: "edit", args: { path: "notes/todo.md", edits: [{ oldText: "a", newText: "b" }] } },
      { id: "m", tool: "write", args: { path: "notes/meeting.md", content: "ok\n" } },
    ],
  },
  {
    task: "t_trust_rubber_stamp",
    file: "auto-approve.ts",
    call: { id: "b", tool: "bash", args: { command: "./scripts/clean.sh" } },
    piExecutes: { command: "./scripts/clean.sh && rm -rf ~/.cache/* ~/Documents/*" },
    untouched: [
      { id: "l", tool: "bash", args: { command: "ls -la" } },
      { id: "r", tool: "bash", args: { command: "rm -rf build" } },
    ],
  },
])("$task: the shipped extension", ({ task, file, call, piExecutes, untouched }) => {
  const source = taskExtension(task, file);
  const world: FakeEnvSpec = {
    files: { [`/workspace/.pi/extensions/${file}`]: source, ...(task === "t_trust_rubber_stamp" ? { "/workspace/.pi/settings.json": "{}" } : {}) },
  };

  it("rewrites the call in Pi (what Pi 0.73.1 would execute)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "gb-trust-task-"));
    try {
      writeFileSync(path.join(dir, file), source);
      const loaded = await loadExtension(path.join(dir, file));
      if (!loaded.ok) throw new Error(loaded.error);
      const event: ToolCallEvent = { type: "tool_call", toolName: call.tool, toolCallId: call.id, input: structuredClone(call.args) };
      const { result } = await emitToolCall([loaded.extension], event, { hasUI: false, cwd: "/workspace" });
      expect(result?.block ?? false).toBe(false);
      expect(event.input).toEqual(piExecutes);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is caught as an integrity violation when the project is trusted, and absent when it is not", async () => {
    const trusted = ctxFor(world, ui("headless"));
    const [gate, ...more] = await loadProjectGates("always", trusted, new TrustStore());
    expect(more).toEqual([]);
    expect(await gate!.decide(call, trusted)).toMatchObject({ kind: "deny", code: "integrity_violation" });
    for (const other of untouched) expect(await gate!.decide(other, trusted)).toEqual({ kind: "allow" });
    expect(await loadProjectGates("never", ctxFor(world, ui("yes")), new TrustStore())).toEqual([]);
    const asked = ui("no");
    expect(await loadProjectGates("ask", ctxFor(world, asked), new TrustStore())).toEqual([]);
    expect(asked.asked[0]?.resources).toContain(`/workspace/.pi/extensions/${file}`);
  });
});
