/**
 * Transforms made ahead of time (gates/pi-extension/transformed.ts) in real sandboxes: a project
 * extension's TypeScript is transformed once per harness process, in its own sandboxed run, to
 * exactly what jiti's babel makes; the extension process runs that code; a failed run changes
 * nothing but who transforms.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { servingBundleDir, TRANSPILE_MODULE } from "../../../../gates/pi-extension/sandbox/bundle.ts";
import { createSandboxedExtensionsGate, makeSandboxedHostDir, SANDBOX_PROJECT_DIR, SANDBOX_WORKER_DIR } from "../../../../gates/pi-extension/sandboxed.ts";
import { forgetTransforms, prepareTransforms, TRANSFORMED_FILE } from "../../../../gates/pi-extension/transformed.ts";
import { babelTransform, entryTransformOptions, transformKey } from "../../../../gates/pi-extension/transpile.ts";
import type { EnvView, GateContext, GateProcessOutput, ProposedCall } from "../../../../gates/types.ts";
import { createWorld, type TrialWorld } from "../../../../harness/sandbox/world/world.ts";

const BLOCK_ECHO = `export default (pi: any) => pi.on("tool_call", (e: any) => String(e.input.command).includes("echo") ? { block: true, reason: "no echo" } : undefined);\n`;
const LOAD = `${SANDBOX_PROJECT_DIR}/0/ext.ts`;
/** Compiled code that blocks everything: it can only decide a call if the process ran it. */
const MARKER = `"use strict";Object.defineProperty(exports, "__esModule", { value: true });exports.default = (pi) => pi.on("tool_call", () => ({ block: true, reason: "made ahead" }));`;

let world: TrialWorld;
beforeAll(async () => {
  world = await createWorld();
});
afterAll(async () => {
  await world.close();
});
beforeEach(() => forgetTransforms());

function hostDirWith(source: string): string {
  const hostDir = makeSandboxedHostDir();
  mkdirSync(path.join(hostDir, "0"));
  writeFileSync(path.join(hostDir, "0", "ext.ts"), source);
  return hostDir;
}

/** The world's gate processes, with the programs started recorded; `transpile` may stand in for the transform run. */
function envOf(started: string[], transpile?: () => GateProcessOutput): EnvView {
  const env = world.env;
  return {
    ...env,
    runGateProcess: (argv, stdin, timeoutMs, binds, options) => {
      started.push(path.basename(argv[1] ?? ""));
      if (transpile && argv[1]?.endsWith(TRANSPILE_MODULE)) return Promise.resolve(transpile());
      return env.runGateProcess!(argv, stdin, timeoutMs, binds, options);
    },
  };
}

async function plan(hostDir: string) {
  const workerDir = await servingBundleDir();
  return {
    program: `${SANDBOX_WORKER_DIR}/${TRANSPILE_MODULE}`,
    binds: [
      { hostPath: workerDir, sandboxPath: SANDBOX_WORKER_DIR },
      { hostPath: hostDir, sandboxPath: SANDBOX_PROJECT_DIR },
    ],
    sandboxDir: SANDBOX_PROJECT_DIR,
    hostDir,
  };
}

const ctx = (env: EnvView): GateContext => ({ env, signal: new AbortController().signal, runId: "t", ui: { hasUI: false, confirm: async () => false } });
const echo: ProposedCall = { id: "c1", tool: "bash", args: { command: "echo hi" } };
const ls: ProposedCall = { id: "c2", tool: "bash", args: { command: "ls" } };

async function decisions(env: EnvView, hostDir: string) {
  const gate = createSandboxedExtensionsGate("project-extensions", env, hostDir, [{ load: LOAD, name: "/workspace/.pi/extensions/ext.ts" }]);
  try {
    expect(await gate.load()).toEqual([]);
    return [await gate.decide(echo, ctx(env)), await gate.decide(ls, ctx(env))];
  } finally {
    gate.close();
  }
}

describe("transforms made ahead", () => {
  it("are made once per file in a sandboxed run, equal to babel's output, and reused for the same file", async () => {
    const started: string[] = [];
    const hostDir = hostDirWith(BLOCK_ECHO);
    expect(await prepareTransforms(envOf(started), [LOAD], await plan(hostDir))).toBe(`${SANDBOX_PROJECT_DIR}/${TRANSFORMED_FILE}`);
    const opts = entryTransformOptions(LOAD, BLOCK_ECHO)!;
    const written = JSON.parse(readFileSync(path.join(hostDir, TRANSFORMED_FILE), "utf8")) as Record<string, string>;
    expect(written).toEqual({ [transformKey(opts)]: babelTransform(opts).code });
    expect(started).toEqual([TRANSPILE_MODULE]);

    const again = hostDirWith(BLOCK_ECHO);
    await prepareTransforms(envOf(started), [LOAD], await plan(again));
    expect(JSON.parse(readFileSync(path.join(again, TRANSFORMED_FILE), "utf8"))).toEqual(written);
    expect(started).toEqual([TRANSPILE_MODULE]);

    await prepareTransforms(envOf(started), [LOAD], await plan(hostDirWith(`${BLOCK_ECHO}// another file\n`)));
    expect(started).toEqual([TRANSPILE_MODULE, TRANSPILE_MODULE]);
  });

  it("the extension process runs the code made ahead for its file's key, and nothing made for another key", async () => {
    const key = transformKey(entryTransformOptions(LOAD, BLOCK_ECHO)!);
    const otherSource = `${BLOCK_ECHO}// another file\n`;
    const otherFile = transformKey(entryTransformOptions(LOAD, otherSource)!);
    const started: string[] = [];
    const made =
      (...keys: string[]) =>
      () => ({ exitCode: 0, stdout: JSON.stringify(keys.map((k) => ({ key: k, code: MARKER }))), stderr: "", timedOut: false });
    // The run asked for one file also "made" another: only the file it was asked for is kept.
    const markerDecisions = await decisions(envOf(started, made(key, otherFile)), hostDirWith(BLOCK_ECHO));
    expect(markerDecisions.map((d) => ("reason" in d ? d.reason : d.kind))).toEqual(["made ahead", "made ahead"]);
    expect(started).toEqual([TRANSPILE_MODULE, "main.mjs"]);
    const otherDecisions = await decisions(envOf(started), hostDirWith(otherSource));
    expect(otherDecisions.map((d) => ("reason" in d ? d.reason : d.kind))).toEqual(["no echo", "allow"]);
    expect(started).toEqual([TRANSPILE_MODULE, "main.mjs", TRANSPILE_MODULE, "main.mjs"]);

    forgetTransforms();
    const other = await decisions(envOf([], made(transformKey({ ...entryTransformOptions(LOAD, BLOCK_ECHO)!, jsx: true }))), hostDirWith(BLOCK_ECHO));
    expect(other.map((d) => ("reason" in d ? d.reason : d.kind))).toEqual(["no echo", "allow"]);
  });

  it("a failed transform run leaves the transform to the extension process, and is tried again next time", async () => {
    const started: string[] = [];
    const failed = () => ({ exitCode: 1, stdout: "", stderr: "boom", timedOut: false });
    const d = await decisions(envOf(started, failed), hostDirWith(BLOCK_ECHO));
    expect(d.map((x) => ("reason" in x ? x.reason : x.kind))).toEqual(["no echo", "allow"]);
    const real = await decisions(envOf(started), hostDirWith(BLOCK_ECHO));
    expect(real.map((x) => ("reason" in x ? x.reason : x.kind))).toEqual(["no echo", "allow"]);
    expect(started).toEqual([TRANSPILE_MODULE, "main.mjs", TRANSPILE_MODULE, "main.mjs"]);
  });
});
