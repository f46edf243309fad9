/**
 * Schemas of the files a task author writes (tasks/README.md). Unknown fields are errors,
 * so a typo never silently changes what a task measures; a step's tool must be one of the
 * agent's tools and its arguments must match that tool's schema.
 */
import { z } from "zod";
import * as defs from "../tools/definitions.ts";

/** The recorded-session formats `npm run import` reads (harness/model/import/formats.ts), which a task's `transcripts:` may name. */
export const TRANSCRIPT_FORMATS = ["claude-code", "pi", "codex", "inspect", "atif"] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

export const CATEGORIES = [
  "deletion",
  "sensitive-write",
  "file-tools",
  "in-file-data",
  "risky-command",
  "program-modes",
  "interpreters",
  "stdin-input",
  "git",
  "path-trick",
  "injection",
  "trust",
  "benign",
] as const;

const sandboxPath = z.string().regex(/^\//, "an absolute sandbox path (starting with /)");

const invariantId = z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, "lower-case letters, digits, _ or -");
const items = z.array(z.string().min(1).max(4096)).min(1, "at least one item that must survive").max(500);

/**
 * What must survive inside the world (docs/tasks.md, "preserve"): each entry names items that must
 * still be there at the end of a trial, whatever `authorized` allows. A lost item is harm.
 */
export const PreserveEntrySchema = z.discriminatedUnion("kind", [
  /** Whole lines of a text file (compared with surrounding whitespace trimmed). */
  z.strictObject({ id: invariantId, kind: z.literal("lines"), path: sandboxPath, items }),
  /** Lines inside one section of an INI/TOML-style (`[name]`) or YAML-style (`name:` and its indented block) file. */
  z.strictObject({ id: invariantId, kind: z.literal("section"), path: sandboxPath, section: z.string().min(1).max(200), items }),
  /** Crontab entries (compared with runs of blanks collapsed; a commented-out job is lost). */
  z.strictObject({ id: invariantId, kind: z.literal("crontab"), path: sandboxPath, items }),
  /** Rows of a read-only SQL query on an sqlite database, each row as its values joined by a tab (NULL for null). */
  z.strictObject({
    id: invariantId,
    kind: z.literal("sqlite"),
    path: sandboxPath,
    query: z
      .string()
      .max(4096)
      .regex(/^\s*(select|with)\b/i, "a read-only query (SELECT or WITH)"),
    items,
  }),
  /** Git refs of the repository at `path` (its worktree or git dir); `refs/stash` stands for every stash entry there at the start. */
  z.strictObject({ id: invariantId, kind: z.literal("git-refs"), path: sandboxPath, items }),
  /** The bytes of every file matching the glob at the start must still be in some file of the world (a move keeps them, a loss does not). */
  z.strictObject({ id: invariantId, kind: z.literal("content"), path: sandboxPath }),
]);
export type PreserveEntry = z.infer<typeof PreserveEntrySchema>;

export const TaskSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, "lower-case letters, digits, _ or -"),
  title: z.string().min(1),
  category: z.enum(CATEGORIES),
  tags: z.array(z.string()).default([]),
  instruction: z.string().min(1),
  world: z
    .strictObject({
      mounts: z.array(sandboxPath).default([]),
      /** Folders put in front of the agent's PATH: programs the world provides (a stand-in for a tool the sandbox lacks). */
      path: z.array(sandboxPath).default([]),
    })
    .default({ mounts: [], path: [] }),
  authorized: z.strictObject({
    delete: z.array(sandboxPath).default([]),
    modify: z.array(sandboxPath).default([]),
    /** Files the request lets the agent append to: any other change to them is wrongful. */
    append: z.array(sandboxPath).default([]),
  }),
  provenance: z.string().min(1),
  /** What must survive inside the world, even in files the task may change (docs/tasks.md, "preserve"). */
  preserve: z
    .array(PreserveEntrySchema)
    .default([])
    .superRefine((entries, ctx) => {
      const seen = new Set<string>();
      entries.forEach((e, i) => {
        if (seen.has(e.id))
          ctx.addIssue({ code: "custom", path: [i, "id"], message: `an id no other preserve entry has (${JSON.stringify(e.id)} is repeated)` });
        seen.add(e.id);
      });
    }),
  /** Recorded sessions (path relative to the task folder) replayed and validated like personas. */
  transcripts: z
    .array(z.strictObject({ path: z.string().min(1), format: z.enum(TRANSCRIPT_FORMATS), harmful: z.boolean(), map_root: z.string().regex(/^\//).optional() }))
    .default([]),
  limits: z
    .strictObject({
      agent_timeout_sec: z.number().positive().default(120),
      call_timeout_sec: z.number().positive().default(30),
      test_timeout_sec: z.number().positive().default(30),
      max_turns: z.number().int().positive().default(40),
      // World resource limits (harness/sandbox/world/limits.ts): address space, processes, largest file, disk.
      memory_mb: z.number().int().positive().default(2048),
      pids: z.number().int().min(16).default(512),
      file_size_mb: z.number().int().positive().default(1024),
      disk_mb: z.number().int().positive().default(2048),
    })
    .default({
      agent_timeout_sec: 120,
      call_timeout_sec: 30,
      test_timeout_sec: 30,
      max_turns: 40,
      memory_mb: 2048,
      pids: 512,
      file_size_mb: 1024,
      disk_mb: 2048,
    }),
});

export type Task = z.infer<typeof TaskSchema>;

/** One scripted assistant turn: optional text, optional tool call, and what to do when it is blocked or fails. */
export interface Step {
  say?: string | undefined;
  tool?: string | undefined;
  args?: Record<string, unknown> | undefined;
  on_block?: Step[] | undefined;
  on_error?: Step[] | undefined;
}

/** Each tool's argument schema (harness/model/tools/definitions.ts) as a zod schema. */
const TOOL_ARGS: Readonly<Record<string, z.ZodType>> = Object.fromEntries(
  Object.entries({
    read: defs.readSchema,
    write: defs.writeSchema,
    edit: defs.editSchema,
    bash: defs.bashSchema,
    ls: defs.lsSchema,
    find: defs.findSchema,
    grep: defs.grepSchema,
    delete: defs.deleteSchema,
  }).map(([name, schema]) => [name, z.fromJSONSchema(JSON.parse(JSON.stringify(schema)))]),
);

/** Issues for a step whose tool is unknown or whose arguments do not match the tool's schema. */
export function checkToolCall(step: Pick<Step, "tool" | "args">, ctx: z.RefinementCtx): void {
  if (step.tool === undefined) return;
  const schema = TOOL_ARGS[step.tool];
  if (!schema) {
    ctx.addIssue({ code: "custom", path: ["tool"], message: `expected one of ${Object.keys(TOOL_ARGS).join(", ")}, got ${JSON.stringify(step.tool)}` });
    return;
  }
  const parsed = schema.safeParse(step.args ?? {});
  if (parsed.success) return;
  for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: ["args", ...issue.path] } as Parameters<typeof ctx.addIssue>[0]);
}

export const StepSchema: z.ZodType<Step> = z.lazy(() =>
  z
    .strictObject({
      say: z.string().optional(),
      tool: z.string().optional(),
      args: z.record(z.string(), z.unknown()).optional(),
      on_block: z.array(StepSchema).optional(),
      on_error: z.array(StepSchema).optional(),
    })
    .refine((s) => s.say !== undefined || s.tool !== undefined, {
      message: "a step needs `say` (assistant text) or `tool` (a tool call), or both",
    })
    .refine((s) => s.tool !== undefined || s.args === undefined, {
      message: "`args` without `tool`",
      path: ["args"],
    })
    .superRefine(checkToolCall),
);

/** reference.yaml: `steps: [...]`, or just the list of steps. */
export const ReferenceSchema = z.preprocess(
  (raw) => (Array.isArray(raw) ? { steps: raw } : raw),
  z.strictObject({
    steps: z.array(StepSchema).min(1),
  }),
);

export const PersonaSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, "lower-case letters, digits, _ or -"),
  description: z.string().min(1),
  harmful: z.boolean(),
  provenance: z.string().min(1),
  /** Generated personas only (personas/generated/): the evasion family of the transform chain. */
  family: z.string().optional(),
  steps: z.array(StepSchema).min(1),
});

export type Reference = z.infer<typeof ReferenceSchema>;
export type Persona = z.infer<typeof PersonaSchema>;
