/** The one cache primitive: a process-wide, byte-bounded LRU (lru-cache) whose entries are valid for one stamp, with concurrent builds of an entry shared. */
import { LRUCache } from "lru-cache";

import { processWide } from "@/lib/cache/process-wide";

/** A kept value and the stamp it was stored for. */
export type Entry<V> = { stamp: string; value: V };

/** Limits of a {@link StampedCache}. */
export type StampedCacheOptions = {
  /** The largest entry kept, in bytes (default: the whole budget). */
  maxEntryBytes?: number;
};

/**
 * A least-recently-used cache bounded by bytes, not entries (issue 13 §4): each value is stored
 * with the caller's estimate of the bytes it holds and the stamp it was built for (a file's
 * size and mtime, a digest of its inputs); a lookup with another stamp misses. The least recently
 * used values go once the sum passes the budget; a value larger than the entry limit is not kept
 * at all (the caller's slower path, e.g. a cache file on disk, serves it again). Estimates are
 * the caller's: say in the caller how they are counted.
 */
export class StampedCache<V> {
  private readonly lru: LRUCache<string, Entry<V>> | null;
  private readonly building = new SharedBuilds<V>();

  /** @param budget the most bytes kept (a non-negative number; 0 keeps nothing). */
  constructor(
    readonly budget: number,
    options: StampedCacheOptions = {},
  ) {
    const maxEntrySize = Math.min(budget, options.maxEntryBytes ?? budget);
    this.lru = budget >= 1 && maxEntrySize >= 1 ? new LRUCache<string, Entry<V>>({ maxSize: Math.floor(budget), maxEntrySize: Math.floor(maxEntrySize) }) : null;
  }

  /** The value under `key` when it was stored for `stamp` (it is then the most recently used), else undefined. */
  get(key: string, stamp = ""): V | undefined {
    const entry = this.lru?.get(key);
    return entry !== undefined && entry.stamp === stamp ? entry.value : undefined;
  }

  /** The value under `key` and the stamp it was stored for, whatever that stamp (an earlier version's value a caller may serve meanwhile), else undefined. */
  latest(key: string): Entry<V> | undefined {
    return this.lru?.get(key);
  }

  /**
   * Stores `value` under `key` for `stamp` as holding `bytes`, replacing what was there, then
   * drops the least recently used values past the budget. Returns false (and keeps nothing
   * under `key`) when `bytes` alone passes the entry limit.
   */
  set(key: string, stamp: string, value: V, bytes: number): boolean {
    if (this.lru === null) return false;
    const size = Math.max(1, Math.ceil(bytes));
    if (!(size <= this.lru.maxEntrySize)) {
      this.lru.delete(key);
      return false;
    }
    this.lru.set(key, { stamp, value }, { size });
    return true;
  }

  /**
   * The value under `key` for `stamp`, or the one `build` makes (stored with the bytes it
   * reports). Concurrent calls for the same key and stamp share one build; a failed build is
   * not remembered.
   */
  async getOrBuild(key: string, stamp: string, build: () => Promise<{ value: V; bytes: number }>): Promise<V> {
    const hit = this.get(key, stamp);
    if (hit !== undefined) return hit;
    return this.building.run(`${key}\u0000${stamp}`, async () => {
      const { value, bytes } = await build();
      this.set(key, stamp, value, bytes);
      return value;
    });
  }

  /** Drops the value under `key`, if any. */
  delete(key: string): void {
    this.lru?.delete(key);
  }

  /** Drops everything. */
  clear(): void {
    this.lru?.clear();
  }

  /** Values kept. */
  get size(): number {
    return this.lru?.size ?? 0;
  }

  /** Sum of the kept values' bytes (never above {@link budget}). */
  get usedBytes(): number {
    return this.lru?.calculatedSize ?? 0;
  }
}

/** Builds under way by key: a second caller for a key joins the first's promise; a settled build is forgotten (a failure too). */
export class SharedBuilds<V> {
  private readonly running = new Map<string, Promise<V>>();

  /** `build()`'s result, shared with every call for `key` made while it runs. */
  run(key: string, build: () => Promise<V>): Promise<V> {
    const running = this.running.get(key);
    if (running) return running;
    const task = build().finally(() => this.running.delete(key));
    this.running.set(key, task);
    return task;
  }
}

/** The process-wide {@link SharedBuilds} named `name`. */
export function sharedBuilds<V>(name: string): SharedBuilds<V> {
  return processWide(`builds:${name}`, () => new SharedBuilds<V>());
}

/**
 * The process-wide {@link StampedCache} named `name` (lib/cache/process-wide: one per process,
 * whichever of Next's bundle layers asks). The first caller's budget holds.
 */
export function stampedCache<V>(name: string, budget: number, options?: StampedCacheOptions): StampedCache<V> {
  return processWide(`cache:${name}`, () => new StampedCache<V>(budget, options));
}
