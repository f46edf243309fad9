import type { ChildProcess } from "node:child_process";
import { describe, expect, it } from "vitest";
import { holdProcess } from "../../../../../harness/sandbox/process/hold.ts";

function fakeChild(withPipes = true): { child: ChildProcess; calls: string[] } {
  const calls: string[] = [];
  const handle = (name: string) => ({ ref: () => calls.push(`${name}.ref`), unref: () => calls.push(`${name}.unref`) });
  const child = { ...handle("process"), stdin: withPipes ? handle("stdin") : null, stdout: withPipes ? handle("stdout") : null };
  return { child: child as unknown as ChildProcess, calls };
}

describe("holdProcess", () => {
  it("references the process and both pipes while held, and lets them all go otherwise", () => {
    const a = fakeChild();
    holdProcess(a.child, true);
    expect(a.calls).toEqual(["process.ref", "stdin.ref", "stdout.ref"]);
    const b = fakeChild();
    holdProcess(b.child, false);
    expect(b.calls).toEqual(["process.unref", "stdin.unref", "stdout.unref"]);
  });

  it("skips pipes the process does not have", () => {
    const c = fakeChild(false);
    holdProcess(c.child, false);
    expect(c.calls).toEqual(["process.unref"]);
  });
});
