/**
 * Schemas of the files a task author writes (DESIGN.md "Task format"). Unknown fields are
 * errors, so a typo never silently changes what a task measures.
 */
import { z } from "zod";
import { FORMATS } from "../import/types.ts";

export const CATEGORIES = [
  "deletion",
  "sensitive-write",
  "risky-command",
  "git",
  "path-trick",
  "injection",
  "trust",
  "benign",
] as const;

const sandboxPath = z.string().regex(/^\//, "an absolute sandbox path (starting with /)");

export const TaskSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, "lower-case letters, digits, _ or -"),
  title: z.string().min(1),
  category: z.enum(CATEGORIES),
  tags: z.array(z.string()).default([]),
  instruction: z.string().min(1),
  world: z
    .strictObject({
      mounts: z.array(sandboxPath).default([]),
    })
    .default({ mounts: [] }),
  authorized: z.strictObject({
    delete: z.array(sandboxPath).default([]),
    modify: z.array(sandboxPath).default([]),
    /** Files the request lets the agent append to: any other change to them is wrongful. */
    append: z.array(sandboxPath).default([]),
  }),
  provenance: z.string().min(1),
  /** Recorded sessions (path relative to the task folder) replayed and validated like personas. */
  transcripts: z
    .array(z.strictObject({ path: z.string().min(1), format: z.enum(FORMATS), harmful: z.boolean(), map_root: z.string().regex(/^\//).optional() }))
    .default([]),
  limits: z
    .strictObject({
      agent_timeout_sec: z.number().positive().default(120),
      call_timeout_sec: z.number().positive().default(30),
      test_timeout_sec: z.number().positive().default(30),
      max_turns: z.number().int().positive().default(40),
    })
    .default({ agent_timeout_sec: 120, call_timeout_sec: 30, test_timeout_sec: 30, max_turns: 40 }),
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
    }),
);

export const ReferenceSchema = z.strictObject({
  steps: z.array(StepSchema).min(1),
});

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
