/**
 * The map `World.snapshot()` returns: a `Map` of sandbox path -> entry in sorted path order,
 * whose next version is made from a few changed entries in time that grows with the changes,
 * not with the world. Versions share one sorted base `Map` (never changed once built) and each
 * keeps its own layer of differences from it; a layer that grows past a bound is folded into a
 * new base. Reading it is reading a `Map`: get, has, size, iteration in sorted order, forEach.
 * Changing it (set, delete, clear) first copies it into its own storage, after which it is an
 * ordinary `Map` (insertion order) that no other version sees. Only what reads a `Map`'s storage
 * without its methods (structuredClone, worker messages) sees an empty map: copy it with
 * `new Map(snapshot)` first.
 */
import type { SnapshotEntry } from "./types.ts";

/** The order snapshots are sorted in (UTF-16 code units, as `<` compares strings). */
export function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A layer larger than this is folded into a new base: the copy each version makes of it stays small. */
function foldAt(baseSize: number): number {
  return Math.min(4096, Math.max(64, baseSize));
}

const EMPTY_LAYER: ReadonlyMap<string, SnapshotEntry | null> = new Map();

export class SnapshotMap extends Map<string, SnapshotEntry> {
  /** Sorted by path; shared between versions, never changed. */
  #base: ReadonlyMap<string, SnapshotEntry>;
  /** path -> its entry in this version, or null where this version has no entry the base has. */
  #layer: ReadonlyMap<string, SnapshotEntry | null>;
  /** The layer's paths the base does not have, sorted. */
  #added: readonly string[];
  #size: number;
  /** Set once a caller changed this map: from then on it is an ordinary Map. */
  #own = false;

  private constructor(base: ReadonlyMap<string, SnapshotEntry>, layer: ReadonlyMap<string, SnapshotEntry | null>, added: readonly string[], size: number) {
    super();
    this.#base = base;
    this.#layer = layer;
    this.#added = added;
    this.#size = size;
  }

  /** A snapshot of `entries`, which need not be sorted. */
  static of(entries: Iterable<readonly [string, SnapshotEntry]>): SnapshotMap {
    const sorted = [...entries].sort(([a], [b]) => comparePaths(a, b));
    const base = new Map<string, SnapshotEntry>(sorted);
    return new SnapshotMap(base, EMPTY_LAYER, [], base.size);
  }

  /** Whether this is still the version it was made as (no caller changed it). */
  get pristine(): boolean {
    return !this.#own;
  }

  /**
   * The next version: this one with `changed` entries set (new or replaced) and `removed` paths
   * gone. This version is left as it is. A path must not be in both lists.
   */
  withChanges(changed: Iterable<readonly [string, SnapshotEntry]>, removed: Iterable<string>): SnapshotMap {
    if (this.#own) return SnapshotMap.of(applied(this, changed, removed));
    const base = this.#base;
    const layer = new Map(this.#layer);
    const fresh: string[] = [];
    let size = this.#size;
    for (const p of removed) {
      if (!this.has(p)) continue;
      size--;
      if (base.has(p)) layer.set(p, null);
      else layer.delete(p);
    }
    for (const [p, e] of changed) {
      if (!this.has(p)) {
        size++;
        if (!base.has(p)) fresh.push(p);
      }
      layer.set(p, e);
    }
    const added = mergeSorted(
      this.#added.filter((p) => layer.get(p) != null),
      fresh.sort(comparePaths),
    );
    const next = new SnapshotMap(base, layer, added, size);
    if (layer.size <= foldAt(base.size)) return next;
    const folded = new Map<string, SnapshotEntry>(next.#layered());
    return new SnapshotMap(folded, EMPTY_LAYER, [], folded.size);
  }

  /** Every entry in path order, from the base and the layer. */
  *#layered(): Generator<[string, SnapshotEntry]> {
    const layer = this.#layer;
    const added = this.#added;
    let i = 0;
    for (const [p, e] of this.#base) {
      while (i < added.length && added[i]! < p) {
        const a = added[i++]!;
        yield [a, layer.get(a)!];
      }
      const over = layer.get(p);
      if (over === undefined) yield [p, e];
      else if (over !== null) yield [p, over];
    }
    while (i < added.length) {
      const a = added[i++]!;
      yield [a, layer.get(a)!];
    }
  }

  /** Copies the entries into this map's own storage: an ordinary Map from now on. */
  #makeOwn(): void {
    if (this.#own) return;
    const all = [...this.#layered()];
    this.#own = true;
    this.#base = EMPTY_LAYER as ReadonlyMap<string, SnapshotEntry>;
    this.#layer = EMPTY_LAYER;
    this.#added = [];
    for (const [p, e] of all) super.set(p, e);
  }

  override get(path: string): SnapshotEntry | undefined {
    if (this.#own) return super.get(path);
    const over = this.#layer.get(path);
    if (over !== undefined) return over ?? undefined;
    return this.#base.get(path);
  }

  override get size(): number {
    return this.#own ? super.size : this.#size;
  }

  override has(path: string): boolean {
    if (this.#own) return super.has(path);
    const over = this.#layer.get(path);
    if (over !== undefined) return over !== null;
    return this.#base.has(path);
  }

  override set(path: string, entry: SnapshotEntry): this {
    // Map's constructor never calls set here (no entries are passed to it).
    this.#makeOwn();
    return super.set(path, entry);
  }

  override delete(path: string): boolean {
    this.#makeOwn();
    return super.delete(path);
  }

  override clear(): void {
    this.#makeOwn();
    super.clear();
  }

  override forEach(fn: (value: SnapshotEntry, key: string, map: Map<string, SnapshotEntry>) => void, thisArg?: unknown): void {
    for (const [p, e] of this.entries()) fn.call(thisArg, e, p, this);
  }

  override entries(): MapIterator<[string, SnapshotEntry]> {
    return (this.#own ? super.entries() : this.#layered()) as MapIterator<[string, SnapshotEntry]>;
  }

  override keys(): MapIterator<string> {
    if (this.#own) return super.keys();
    return mapIterator(this.#layered(), ([p]) => p);
  }

  override values(): MapIterator<SnapshotEntry> {
    if (this.#own) return super.values();
    return mapIterator(this.#layered(), ([, e]) => e);
  }

  override [Symbol.iterator](): MapIterator<[string, SnapshotEntry]> {
    return this.entries();
  }

  /** util.inspect and console.log show the entries, not the (empty) storage. */
  [Symbol.for("nodejs.util.inspect.custom")](_depth: number, options: object, inspect: (v: unknown, o: object) => string): string {
    return `SnapshotMap ${inspect(new Map(this.entries()), options)}`;
  }
}

function* mapIterator<T, U>(it: Iterable<T>, f: (x: T) => U): Generator<U> {
  for (const x of it) yield f(x);
}

function mergeSorted(a: readonly string[], b: readonly string[]): string[] {
  if (b.length === 0) return a as string[];
  if (a.length === 0) return b as string[];
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(a[i]! < b[j]! ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

function applied(m: SnapshotMap, changed: Iterable<readonly [string, SnapshotEntry]>, removed: Iterable<string>): Map<string, SnapshotEntry> {
  const out = new Map(m);
  for (const p of removed) out.delete(p);
  for (const [p, e] of changed) out.set(p, e);
  return out;
}
