/**
 * Saved trust decisions, keyed by normalised directory (Pi's trust.json, kept in memory for one
 * run). A lookup returns the decision of the directory itself or of its nearest ancestor; the
 * ancestor relation is a path relation, so a decision for /work/app never covers /work/app2.
 *
 * Every world mounts its project at /workspace, so one store shared by trials of different tasks
 * would carry one task's answer into another: give each (task, approver) its own store.
 */
import { posix } from "node:path";

export interface SavedDecision {
  dir: string;
  trusted: boolean;
}

export function normaliseDir(dir: string): string {
  return posix.resolve("/", dir);
}

export class TrustStore {
  private readonly decisions = new Map<string, boolean>();

  set(dir: string, trusted: boolean): void {
    this.decisions.set(normaliseDir(dir), trusted);
  }

  /** The decision saved for `dir` itself, or undefined. */
  get(dir: string): boolean | undefined {
    return this.decisions.get(normaliseDir(dir));
  }

  /** The decision of `dir` or of its nearest ancestor that has one. */
  lookup(dir: string): SavedDecision | undefined {
    for (let d = normaliseDir(dir); ; d = posix.dirname(d)) {
      const trusted = this.decisions.get(d);
      if (trusted !== undefined) return { dir: d, trusted };
      if (posix.dirname(d) === d) return undefined;
    }
  }

  entries(): SavedDecision[] {
    return [...this.decisions].map(([dir, trusted]) => ({ dir, trusted }));
  }
}
