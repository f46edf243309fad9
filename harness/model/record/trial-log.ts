/** A trial's event log: each event is appended to trials/<trial_id>.jsonl with its time. */
export type TrialLog = (type: string, fields?: Record<string, unknown>) => void;
