/** A trial's event log: each event is appended to trials/<trial_id>.jsonl with its time (the union: events.ts). */
export type { TrialLog } from "./events.ts";
