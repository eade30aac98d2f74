/** Control Plane ledger entries read and parsed, cached by file version. */
import fs from "node:fs/promises";
import path from "node:path";

import { stampedCache } from "@/lib/cache/stamped-cache";
import { fileStamp } from "@/lib/fs/file-stamp";
import type { DiscoveredLedger } from "@/lib/sources/control-plane/discover";
import { forEachLedgerLine } from "@/lib/sources/control-plane/ledger-lines";
import { parseTimestampMicros } from "@/lib/sources/common/py-compat";

/** A parsed JSON object. */
export type JsonObject = { [key: string]: unknown };

/** One ledger entry as the tools see it: where it is, its raw line, and the parsed object. */
export type CpEntry = {
  /** Ledger id (`governance`, `ho2m`, `ho1m`, …). */
  source: string;
  /** Segment file name. */
  file: string;
  /** 1-based line in `file`. */
  line: number;
  raw: string;
  entry: JsonObject;
  /** Microseconds since the epoch of `timestamp`, null when missing or unparseable. */
  micros: number | null;
};

/** A ledger's lines that are not JSON objects (blank lines excluded), for diagnostics. */
export type CpMalformedLine = { file: string; line: number };

export type CpLedgerRead = { entries: CpEntry[]; malformed: CpMalformedLine[] };

/**
 * Bytes of ledger reads kept in memory (issue 13 §4: bounded by bytes, not ledgers), counted as
 * four bytes a character of entry text: the raw line kept beside its parsed object. A ledger read
 * past the budget is parsed again on each call instead of pinned.
 */
export const LEDGER_ENTRIES_MEMORY_BYTES = 48 << 20;
const cache = stampedCache<CpLedgerRead>("control-plane:entries", LEDGER_ENTRIES_MEMORY_BYTES);

/**
 * Reads every entry of a ledger (segments in chain order), streaming each file. Results are
 * cached per ledger and revalidated against every segment's size and mtime, so repeated tool
 * calls over an unchanged ledger parse it once; a ledger that grows is re-read. Read-only.
 * @throws the fs error when a segment cannot be read.
 */
export async function readLedgerEntries(ledger: DiscoveredLedger): Promise<CpLedgerRead> {
  const stamp = (await Promise.all(ledger.segments.map(async (f) => {
    const st = await fs.stat(f);
    return `${f}:${fileStamp(st)}`;
  }))).join("|");
  const key = `${ledger.dir}\u0000${ledger.id}`;
  const hit = cache.get(key, stamp);
  if (hit) return hit;
  const entries: CpEntry[] = [];
  const malformed: CpMalformedLine[] = [];
  let textChars = 0;
  for (const segment of ledger.segments) {
    const file = path.basename(segment);
    await forEachLedgerLine(segment, (l) => {
      if (l.text.trim() === "") return;
      let value: unknown;
      try {
        value = JSON.parse(l.text);
      } catch {
        malformed.push({ file, line: l.line });
        return;
      }
      if (!isObject(value)) {
        malformed.push({ file, line: l.line });
        return;
      }
      entries.push({ source: ledger.id, file, line: l.line, raw: l.text, entry: value, micros: parseTimestampMicros(value.timestamp) });
      textChars += l.text.length;
    });
  }
  const read = { entries, malformed };
  cache.set(key, stamp, read, 4 * textChars + 2 * stamp.length + 64 * (entries.length + malformed.length));
  return read;
}

/** `value` when it is a plain object. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/** An entry's `metadata` object, `{}` when absent. */
export function metadataOf(entry: JsonObject): JsonObject {
  return isObject(entry.metadata) ? entry.metadata : {};
}

/**
 * The session of an entry by source-formats.md §3.3: the first of `metadata.session_id`,
 * `metadata.provenance.session_id`, `metadata._session_id`, else `submission_id` when it starts
 * with `SES-`; null when none. (Per-session ledgers carry a top-level `session_id`, used last.)
 */
export function sessionIdOf(entry: JsonObject): string | null {
  const meta = metadataOf(entry);
  const prov = isObject(meta.provenance) ? meta.provenance : {};
  const sub = str(entry.submission_id);
  return str(meta.session_id) ?? str(prov.session_id) ?? str(meta._session_id) ?? (sub?.startsWith("SES-") ? sub : null) ?? str(entry.session_id);
}

/**
 * The work order of an entry by §3.3: provenance or metadata `work_order_id` / `wo_id` (and the
 * tier stamp `_work_order_id`), else `submission_id` when it starts with `WO-`; null when none.
 */
export function workOrderIdOf(entry: JsonObject): string | null {
  const meta = metadataOf(entry);
  const prov = isObject(meta.provenance) ? meta.provenance : {};
  const sub = str(entry.submission_id);
  return str(prov.work_order_id) ?? str(prov.wo_id) ?? str(meta.work_order_id) ?? str(meta.wo_id) ?? str(meta._work_order_id) ?? (sub?.startsWith("WO-") ? sub : null);
}

/** §3.3: an entry belongs to a session when its session id matches or its WO id starts with `WO-<session>-`. */
export function belongsToSession(entry: JsonObject, sessionId: string): boolean {
  if (sessionIdOf(entry) === sessionId) return true;
  return workOrderIdOf(entry)?.startsWith(`WO-${sessionId}-`) ?? false;
}
