/**
 * `npm run eval -- --record-personas` (before cassettes, `--record`): every real-model trial of the run is saved as a persona,
 * <dir>/<task>/<persona>.yaml (recorded-persona.ts). The model selectors carry this sink to
 * their driver, which it wraps in a recorder; when the trial's record arrives, its recording is
 * written with the trial's gate configuration, approver and id.
 *
 * A driver cannot see which trial it plays, so recorded trials run one at a time: the recorder
 * attached since the last finished trial is that trial's, checked against the record's task,
 * model and number of calls.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../../../../kernel/errors.ts";
import { redact } from "../../../text/redact/redact.ts";
import { recordedPersona } from "./recorded-persona.ts";
import { recordDriver, type TurnRecorder } from "./recorder.ts";
import type { Driver } from "./types.ts";

/** What the sink needs of a finished trial's record (harness/model/record/record.ts). */
export interface FinishedTrial {
  run_id: string;
  trial_id: string;
  task: string;
  agent: string;
  gate: string;
  approver: string;
  attempt: number;
  outcome: string;
  error?: string;
  tool_calls: number;
  harmed: boolean | null;
  caught: number;
}

export class Recordings {
  private readonly models = new Set<string>();
  private readonly pending: { task: string; model: string; recorder: TurnRecorder }[] = [];
  /** Files written, in order. */
  readonly written: string[] = [];
  /** Trials not recorded and recordings worth a second look, one line each. */
  readonly notes: string[] = [];

  constructor(
    readonly dir: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The --agents selectors with every real model recorded into this sink; bad input when there is none. */
  select<S extends { kind: string }>(selectors: readonly S[], recordable: (s: S) => boolean, record: (s: S, sink: { recordings: Recordings }) => S): S[] {
    const out = selectors.map((s) => {
      if (!recordable(s)) return s;
      this.models.add((s as S & { id: string }).id);
      return record(s, { recordings: this });
    });
    if (this.models.size === 0)
      throw new InputError("command line", "--record-personas", "a real model in --agents (<provider>/<model>) whose trials to record");
    return out;
  }

  /** The driver of one trial of `model` on `task`, recorded. */
  attach(driver: Driver, task: string, model: string): Driver {
    const recorded = recordDriver(driver);
    this.pending.push({ task, model, recorder: recorded.recorder });
    return recorded.driver;
  }

  /** A trial ended: write its recording when it is a recorded model's. Returns the file written. */
  finish(trial: FinishedTrial): string | undefined {
    if (!this.models.has(trial.agent)) return undefined;
    const entry = this.pending.shift();
    if (this.pending.length > 0) throw new Error("recordings: more than one trial in flight; recorded trials must run one at a time (--concurrency 1)");
    const skip = (why: string) => {
      this.notes.push(`${trial.trial_id}: not recorded: ${why}`);
      return undefined;
    };
    if (!entry) return skip(trial.error ?? "the model never ran");
    if (entry.task !== trial.task || entry.model !== trial.agent)
      return skip(`the recorded driver played ${entry.model} on ${entry.task}, not this trial's agent and task`);
    if (trial.outcome === "harness_error" || trial.outcome === "measurement_failed") return skip(trial.error ?? trial.outcome);
    const trajectory = entry.recorder.trajectory();
    if (trajectory.calls.length !== trial.tool_calls) return skip(`the recorder saw ${trajectory.calls.length} gated calls, the trial ${trial.tool_calls}`);
    let recording: ReturnType<typeof recordedPersona>;
    try {
      recording = recordedPersona(trajectory, {
        task: trial.task,
        model: trial.agent,
        gate: trial.gate,
        approver: trial.approver,
        attempt: trial.attempt,
        runId: trial.run_id,
        trialId: trial.trial_id,
        date: this.now().toISOString(),
        harmful: trial.harmed || trial.caught > 0,
      });
    } catch (e) {
      return skip(`no valid persona: ${(e as Error).message.split("\n")[0]}`);
    }
    const { persona, yaml } = recording;
    const file = join(this.dir, trial.task, `${persona.name}.yaml`);
    mkdirSync(join(this.dir, trial.task), { recursive: true });
    writeFileSync(file, yaml);
    this.written.push(file);
    if (redact(yaml) !== yaml)
      this.notes.push(`${file}: holds text shaped like a secret, kept verbatim so the replay makes the same calls; review it before sharing`);
    return file;
  }
}
