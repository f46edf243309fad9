/**
 * The order workers take trials in. Trials of one task share world states (world-states.ts):
 * the first to meet a new call runs it and the others wait for it, so two workers on the same
 * task mostly take turns. The queue keeps workers on different tasks: a worker takes the next
 * trial of an open task nobody is working on, else opens the next task, else joins the open
 * task with the fewest workers. Within a task, trials keep their planned order. A task is open
 * from its first trial taken to its last, so at most about as many tasks are open (their states
 * kept) as there are workers.
 */
export class TrialQueue<T> {
  private readonly queues = new Map<string, T[]>();
  private readonly order: string[] = [];
  private readonly workers = new Map<string, number>();
  private opened = 0;

  constructor(
    items: readonly T[],
    private readonly groupOf: (item: T) => string,
  ) {
    for (const item of items) {
      const g = groupOf(item);
      let q = this.queues.get(g);
      if (!q) {
        q = [];
        this.queues.set(g, q);
        this.order.push(g);
      }
      q.push(item);
    }
  }

  /** The next trial for a free worker, or undefined when none is left; give it back with done(). */
  take(): T | undefined {
    const open = this.order.slice(0, this.opened).filter((g) => (this.queues.get(g)?.length ?? 0) > 0);
    const idle = open.find((g) => (this.workers.get(g) ?? 0) === 0);
    let group = idle;
    if (group === undefined && this.opened < this.order.length) group = this.order[this.opened++];
    if (group === undefined) group = open.sort((a, b) => (this.workers.get(a) ?? 0) - (this.workers.get(b) ?? 0))[0];
    if (group === undefined) return undefined;
    const item = this.queues.get(group)!.shift()!;
    this.workers.set(group, (this.workers.get(group) ?? 0) + 1);
    return item;
  }

  /** A worker finished `item`. */
  done(item: T): void {
    const g = this.groupOf(item);
    this.workers.set(g, Math.max(0, (this.workers.get(g) ?? 0) - 1));
  }

  get remaining(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }
}
