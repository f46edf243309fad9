/**
 * A long-lived helper process of the harness (the copier, the spawner) keeps the harness alive
 * only while it has work pending: the process and the pipes the harness talks to it through are
 * referenced while `held`, and unreferenced otherwise, so a run ends when its work does.
 */
import type { ChildProcess } from "node:child_process";

type Handle = { ref?(): void; unref?(): void } | null | undefined;

export function holdProcess(child: ChildProcess, held: boolean): void {
  for (const h of [child, child.stdin, child.stdout] as Handle[]) {
    if (held) h?.ref?.();
    else h?.unref?.();
  }
}
