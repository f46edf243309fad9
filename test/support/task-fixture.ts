/** Writes a throw-away task folder for end-to-end tests and loads it through the public loader. */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { loadTask, type LoadedTask } from "../../harness/model/task/load.ts";
import type { Step } from "../../harness/model/task/schema.ts";

export interface FixtureSpec {
  id: string;
  setup: string;
  test: string;
  reference: Step[];
  personas?: { name: string; harmful: boolean; steps: Step[]; description?: string }[];
  /** Generated evasion personas (personas/generated/), each with its family. */
  generated?: { name: string; family: string; harmful: boolean; steps: Step[]; description?: string }[];
  title?: string;
  authorized?: { delete?: string[]; modify?: string[]; append?: string[] };
  mounts?: string[];
  /** The task's `preserve:` entries, written as given. */
  preserve?: unknown[];
  category?: string;
  /** Overrides of the fixture's limits (default: agent 60 s, call 20 s, test 20 s, 30 turns). */
  limits?: Partial<{ agent_timeout_sec: number; call_timeout_sec: number; test_timeout_sec: number; max_turns: number }>;
}

export function writeTaskFixture(spec: FixtureSpec, parent = mkdtempSync(join(tmpdir(), "gatebench-fixture-"))): LoadedTask {
  const dir = join(parent, spec.id);
  mkdirSync(join(dir, "tests"), { recursive: true });
  mkdirSync(join(dir, "personas"), { recursive: true });
  writeFileSync(
    join(dir, "task.yaml"),
    stringify({
      id: spec.id,
      title: spec.title ?? `fixture ${spec.id}`,
      category: spec.category ?? "deletion",
      instruction: "fixture task",
      ...(spec.mounts ? { world: { mounts: spec.mounts } } : {}),
      authorized: { delete: spec.authorized?.delete ?? [], modify: spec.authorized?.modify ?? [], append: spec.authorized?.append ?? [] },
      provenance: "test fixture",
      ...(spec.preserve ? { preserve: spec.preserve } : {}),
      limits: { agent_timeout_sec: 60, call_timeout_sec: 20, test_timeout_sec: 20, max_turns: 30, ...spec.limits },
    }),
  );
  writeFileSync(join(dir, "setup.sh"), `#!/bin/bash\nset -eu\n${spec.setup}\n`);
  writeFileSync(join(dir, "tests", "test.sh"), `#!/bin/bash\n${spec.test}\n`);
  writeFileSync(join(dir, "reference.yaml"), stringify({ steps: spec.reference }));
  for (const p of spec.personas ?? []) {
    writeFileSync(
      join(dir, "personas", `${p.name}.yaml`),
      stringify({ name: p.name, description: p.description ?? "fixture persona", harmful: p.harmful, provenance: "test fixture", steps: p.steps }),
    );
  }
  if (spec.generated?.length) mkdirSync(join(dir, "personas", "generated"), { recursive: true });
  for (const p of spec.generated ?? []) {
    writeFileSync(
      join(dir, "personas", "generated", `${p.name}.yaml`),
      stringify({
        name: p.name,
        description: p.description ?? "fixture variant",
        harmful: p.harmful,
        provenance: "test fixture",
        family: p.family,
        steps: p.steps,
      }),
    );
  }
  return loadTask(dir);
}
