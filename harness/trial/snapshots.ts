/** Phase "final_snapshot": the world at the end of the agent phase and its net wrongful effects (S0 comes from trial-states.ts). */
import { diffSnapshots } from "../model/effects/diff.ts";
import { wrongfulEffects, type Authorized, type WrongfulSummary } from "../model/effects/wrongful.ts";
import type { Snapshot } from "../sandbox/world/types.ts";
import type { CallBook } from "./call-book.ts";
import type { TrialStates } from "./states/trial-states.ts";

export interface FinalSnapshot {
  /** S0 of the world the end was measured in. */
  s0: Snapshot;
  end: Snapshot;
  /** Wrongful effects from S0 to the end (files only ever appended to count as appends). */
  net: WrongfulSummary;
  /** Which paths changed and how, one line each (for validation). */
  changes: string[];
}

export async function finalSnapshot(states: TrialStates, book: CallBook, authorized: Authorized): Promise<FinalSnapshot> {
  // S0 of the world the end was measured in: snapshots are compared within one world's lineage.
  const { s0, end } = await states.end();
  book.settle(end);
  // Content hashes are left out because tools such as git write timestamps into their own
  // files (.git/index), which differ between identical runs.
  const changes = diffSnapshots(s0, end).map((c) => `${c.kind} ${c.path}${c.after?.target ? ` -> ${c.after.target}` : ""}`);
  return { s0, end, net: wrongfulEffects(s0, end, authorized, book.ledger.appended), changes };
}
