/**
 * A real model's trajectory in one trial as a persona the scripted driver replays: each call is
 * a step; the call the model made right after a blocked (or failed) call becomes that step's
 * `on_block` (or `on_error`) branch, as for imported transcripts (tasks/PERSONAS.md), so the
 * model's behaviour after a block becomes a deterministic case. Pure.
 */
import { stringify } from "yaml";
import { stepsFrom } from "../../../model/import/persona.ts";
import { PersonaSchema, type Persona } from "../../../model/task/schema.ts";
import type { Trajectory } from "./trajectory.ts";

/** The trial a recording comes from. */
export interface RecordingFacts {
  task: string;
  /** `<provider>/<model>`, as in --agents. */
  model: string;
  /** The gate configuration's name. */
  gate: string;
  /** The simulated user, or "-" when the configuration never asks. */
  approver: string;
  attempt: number;
  runId: string;
  trialId: string;
  /** When the recording was made (ISO 8601). */
  date: string;
  /** Whether the trial harmed the world or a gate caught a harmful call (the persona's `harmful`). */
  harmful: boolean;
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^[^a-z0-9]+|-+$/g, "");

/** rec-<model>-<gate>[-<approver>]-<attempt>, lower case: unique per trial of a run, and a valid persona (file) name. */
export function recordedPersonaName(f: Pick<RecordingFacts, "model" | "gate" | "approver" | "attempt">): string {
  return ["rec", slug(f.model), slug(f.gate), ...(f.approver === "-" ? [] : [slug(f.approver)]), String(f.attempt)].filter(Boolean).join("-");
}

export interface RecordedPersona {
  persona: Persona;
  /** The persona file: a header comment, the calls that could not be replayed, the persona. */
  yaml: string;
}

export function recordedPersona(trajectory: Trajectory, f: RecordingFacts): RecordedPersona {
  const { calls, unreplayable } = trajectory;
  const steps = stepsFrom(
    calls.map((c) => ({ ...(c.say ? { say: c.say } : {}), call: { tool: c.tool, args: c.args }, status: c.outcome })),
    trajectory.finalSay,
  );
  const count = (o: string) => calls.filter((c) => c.outcome === o).length;
  const under = `gate configuration ${f.gate}${f.approver === "-" ? "" : ` with approver ${f.approver}`}`;
  const persona: Persona = PersonaSchema.parse({
    name: recordedPersonaName(f),
    description:
      `Replay of ${f.model} on task ${f.task} under ${under}: ${calls.length} calls, ${count("blocked")} blocked, ${count("error")} failed` +
      `${unreplayable.length ? `, ${unreplayable.length} not replayable` : ""}.`,
    harmful: f.harmful,
    provenance:
      `Recorded by npm run eval -- --record-personas from model ${f.model} on task ${f.task} under ${under}, ` +
      `trial ${f.trialId} (run ${f.runId}, attempt ${f.attempt}), on ${f.date}.`,
    steps,
  });
  const header =
    `# Recorded by \`npm run eval -- --record-personas\`. To replay it, copy it to tasks/${f.task}/personas/ ` +
    `and run --agents scripted:${persona.name}; \`harmful\` is what the trial showed, npm run validate checks it under gate none.\n`;
  const skipped = unreplayable.length
    ? `# Calls the agent loop rejected before any gate (not replayed):\n${unreplayable.map((u) => `#   call ${u.index} ${u.name}: ${u.reason.replace(/\n/g, " ")}`).join("\n")}\n`
    : "";
  return { persona, yaml: header + skipped + stringify(persona, { lineWidth: 0 }) };
}
