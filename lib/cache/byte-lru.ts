/**
 * A least-recently-used map bounded by bytes, not entries (issue 13 §4): each value is stored
 * with the caller's estimate of the bytes it holds, and the least recently used values go once
 * the sum passes the budget. A value larger than the budget is not kept at all (the caller's
 * slower path, e.g. a cache file on disk, serves it again). Estimates are the caller's: say in
 * the caller how they are counted.
 */
export class ByteLru<K, V> {
  private readonly entries = new Map<K, { value: V; bytes: number }>();
  private used = 0;

  /** @param budget the most bytes kept (a non-negative number). */
  constructor(readonly budget: number) {}

  /** The value under `key` (now the most recently used), or undefined. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /**
   * Stores `value` under `key` as holding `bytes`, replacing what was there, then drops the least
   * recently used values past the budget. Returns false (and keeps nothing under `key`) when
   * `bytes` alone passes the budget.
   */
  set(key: K, value: V, bytes: number): boolean {
    this.delete(key);
    if (!(bytes <= this.budget)) return false;
    this.entries.set(key, { value, bytes });
    this.used += bytes;
    for (const [k, e] of this.entries) {
      if (this.used <= this.budget) break;
      this.entries.delete(k);
      this.used -= e.bytes;
    }
    return true;
  }

  /** Drops the value under `key`, if any. */
  delete(key: K): void {
    const old = this.entries.get(key);
    if (old === undefined) return;
    this.entries.delete(key);
    this.used -= old.bytes;
  }

  /** Drops everything. */
  clear(): void {
    this.entries.clear();
    this.used = 0;
  }

  /** Values kept. */
  get size(): number {
    return this.entries.size;
  }

  /** Sum of the kept values' bytes (never above {@link budget}). */
  get usedBytes(): number {
    return this.used;
  }
}
