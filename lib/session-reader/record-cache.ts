/** Compact records kept in memory, bounded by bytes. */
import { processWide } from "@/lib/cache/process-wide";
import { StampedCache } from "@/lib/cache/stamped-cache";
import { memoText, shareValue } from "@/lib/json/shared-values";
import type { CompactRecord } from "@/lib/session-reader/schema";

/**
 * Budget of the cache, in bytes of cached records as {@link recordCost} counts them: the record
 * itself plus the two JSON texts kept beside it (lib/json/shared-values). 32 MiB holds three
 * 2,000-line windows of an agent session whose messages are kept whole (issue 38: a Gemini
 * window's compact JSON is ~3.5 MB, its cost ~10.6 MB; with 8 MiB none stayed, and each read
 * loaded its blocks again) and a dozen of a real-shaped Claude Code session (~0.75 MB, ~2.3 MB).
 */
const BUDGET_BYTES = 32 << 20;
/** Bytes of a record beyond its JSON text: the entry, its key and the object headers. */
const RECORD_OVERHEAD = 200;

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
  private readonly records: StampedCache<CompactRecord>;

  constructor(budget = BUDGET_BYTES) {
    // One record may take an eighth of the budget at most: a huge line never flushes a window.
    this.records = new StampedCache<CompactRecord>(budget, { maxEntryBytes: budget / 8 });
  }

  /** The cached record for `line` of a file version, or undefined. */
  get(version: string, line: number): CompactRecord | undefined {
    return this.records.get(`${version}\u0000${line}`);
  }

  /** Caches a record, evicting the least recently used ones past the budget. */
  set(version: string, record: CompactRecord): void {
    const shared = shareValue(record);
    this.records.set(`${version}\u0000${record.line}`, "", shared, recordCost(shared));
  }

  /** Drops everything (tests, benchmarks). */
  clear(): void {
    this.records.clear();
  }
}

/**
 * Bytes a cached record holds (issue 13 §4: caches bounded by bytes): three times its response
 * JSON (the record's own strings and numbers, the response text and the canonical text that
 * lib/json/shared-values remembers beside it, each about as long as that JSON; UTF-16 strings
 * count once, a good enough bound for mostly-ASCII transcripts) plus {@link RECORD_OVERHEAD}.
 * The JSON is the one the response serializer would compute anyway: it is remembered for it.
 */
export function recordCost(record: CompactRecord): number {
  const json = memoText("json", record, (v) => JSON.stringify(v)) ?? "";
  return RECORD_OVERHEAD + 3 * json.length;
}

/**
 * The process-wide cache used by `read_session_lines` and the viewer: one per process
 * (lib/cache/process-wide), whichever of Next's bundle layers asks (the session page's first
 * window is read by a server component, the next ones by the route handler: each layer kept a
 * cache of its own, up to the budget each, issue 13).
 */
export const compactRecordCache = processWide("session-reader:compact-records", () => new CompactRecordCache());
