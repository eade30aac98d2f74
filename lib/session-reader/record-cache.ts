import { shareValue } from "@/lib/json/shared-values";
import type { CompactRecord } from "@/lib/session-reader/schema";

/**
 * Budget of the cache, in estimated bytes of cached records (not of source lines). Half of the
 * 32 MiB it was: each record now also keeps its two JSON texts (lib/json/shared-values), about
 * its own size again; 16 MiB still holds several 2,000-line windows.
 */
const BUDGET_BYTES = 16 << 20;
const RECORD_OVERHEAD = 400;

type Entry = { record: CompactRecord; cost: number };

/**
 * A bounded, least-recently-used cache of compact records, keyed by file version (absolute
 * path, size, mtime), source and line. A compact record is a pure function of the file's bytes
 * (a Codex echo looks only at the neighbouring lines), so a cached record is exactly what a
 * fresh build gives. Scrolling viewers and agents paging through a session re-read overlapping
 * windows; the hits skip decoding, JSON parsing and hashing. Cached records are shared: they are
 * deep-frozen ({@link shareValue}), and their response and canonical JSON texts are remembered
 * beside them while they stay cached.
 */
export class CompactRecordCache {
  private readonly entries = new Map<string, Entry>();
  private used = 0;

  constructor(private readonly budget = BUDGET_BYTES) {}

  /** The cached record for `line` of a file version, or undefined. */
  get(version: string, line: number): CompactRecord | undefined {
    const key = `${version}\u0000${line}`;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.record;
  }

  /** Caches a record, evicting the least recently used ones past the budget. */
  set(version: string, record: CompactRecord): void {
    const key = `${version}\u0000${record.line}`;
    const old = this.entries.get(key);
    if (old) {
      this.used -= old.cost;
      this.entries.delete(key);
    }
    const cost = estimateCost(record);
    if (cost > this.budget / 8) return;
    this.entries.set(key, { record: shareValue(record), cost });
    this.used += cost;
    for (const [k, e] of this.entries) {
      if (this.used <= this.budget) break;
      this.entries.delete(k);
      this.used -= e.cost;
    }
  }

  /** Drops everything (tests, benchmarks). */
  clear(): void {
    this.entries.clear();
    this.used = 0;
  }
}

function estimateCost(record: CompactRecord): number {
  let chars = record.text_preview?.length ?? 0;
  for (const use of record.tool_uses) chars += use.input_summary.length;
  for (const result of record.tool_results) chars += (result.preview?.length ?? 0) + (result.command?.length ?? 0) + (result.file_path?.length ?? 0);
  return RECORD_OVERHEAD + 2 * chars;
}

/** The process-wide cache used by `read_session_lines` and the viewer. */
export const compactRecordCache = new CompactRecordCache();
