// The audit ledger's head file: the chain's tip, entry count, open receipts and sealed segments, rewritten atomically with each append.
import fs from "node:fs";
import path from "node:path";

import { sha256Text } from "@/lib/json/canonical-json";
import { textRecords } from "@/lib/jsonl/text-lines";
import { type ChainLine, GENESIS_HASH, lineHash, readChainLine } from "@/lib/ledger/chain";
import { type LedgerPaths, listSegmentsSync, segmentName } from "@/lib/ledger/paths";
import { merkleRoot } from "@/lib/sources/control-plane/verify";

/** A rotated segment closed by its Merkle root (seed 004's pairwise SHA-256 over its lines' hashes). */
export type SegmentSeal = { file: string; lines: number; bytes: number; merkle_root: string };

/**
 * The head (issue 26), in `audit/traces/tool-traces.head.json` and its second slot. `entries`: chained entries written (the next
 * `seq`); `last_hash`: the `prev_hash` the next entry carries; `active_bytes`: the active file's
 * size after the last append (a larger file means a writer died between its append and this
 * file's update: the next writer reads the difference); `legacy`: the unchained lines before
 * the chain; `open`: started entries not finished yet (receipt → seq), the only ones
 * reconciliation may finish; `rebuilt`: when the head was found missing and rebuilt from the
 * ledger (verify reports it).
 */
export type LedgerHead = {
  schema_version: 1;
  entries: number;
  last_hash: string;
  active_bytes: number;
  legacy: { lines: number; last_hash: string } | null;
  segments: SegmentSeal[];
  open: Record<string, number>;
  rebuilt?: { entries: number; timestamp: string }[];
  updated_at: string;
};


/**
 * The head as stored, or null when absent or unreadable. It lives in two slot files written in
 * turn ({@link writeHeadSync}); the valid slot (its checksum recomputes) with the higher counter
 * is the head.
 */
export function readHeadSync(paths: LedgerPaths): LedgerHead | null {
  let best: { counter: number; head: LedgerHead } | null = null;
  for (const file of paths.headSlots) {
    const slot = readSlot(file);
    if (slot && (!best || slot.counter > best.counter)) best = slot;
  }
  if (!best) return null;
  headCounters.set(paths.head, best.counter);
  return best.head;
}

type Slot = { counter: number; sha256: string; head: LedgerHead };

function readSlot(file: string): { counter: number; head: LedgerHead } | null {
  try {
    const slot = JSON.parse(fs.readFileSync(file, "utf8")) as Slot;
    const head = slot.head;
    if (!head || head.schema_version !== 1 || typeof head.entries !== "number" || !Number.isInteger(slot.counter)) return null;
    return sha256Text(JSON.stringify(head)) === slot.sha256 ? { counter: slot.counter, head } : null;
  } catch {
    return null;
  }
}

/** The counter of the slot last read or written, per head (the next write goes to the other slot). */
const headCounters = new Map<string, number>();

/**
 * Writes the head (the caller holds the writers' lock) into the slot that does not hold the
 * current one, in place, with a counter and a checksum: a write torn by a crash leaves an
 * invalid slot and the other, previous head, which the next writer moves past the lines written
 * since (see Ledger). NOTE: not a temp file renamed over the head: on ext4 a rename that
 * replaces a file flushes it (auto_da_alloc), 1–2 ms on every append.
 */
export function writeHeadSync(paths: LedgerPaths, head: LedgerHead): void {
  if (!headCounters.has(paths.head)) readHeadSync(paths);
  const counter = (headCounters.get(paths.head) ?? 0) + 1;
  const body = JSON.stringify(head);
  const text = `{"counter":${counter},"sha256":"${sha256Text(body)}","head":${body}}`;
  const file = paths.headSlots[counter % 2]!;
  // Overwritten from offset 0, then cut to length (a truncation to zero would also force a flush).
  const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o644);
  try {
    const bytes = Buffer.from(text);
    fs.writeSync(fd, bytes, 0, bytes.length, 0);
    fs.ftruncateSync(fd, bytes.length);
  } finally {
    fs.closeSync(fd);
  }
  headCounters.set(paths.head, counter);
}

/**
 * The `\n` records of a ledger file's bytes, decoded (lib/jsonl/text-lines); a final record
 * without its `\n` (a write in progress) only when `withTail`.
 */
export function splitLines(data: Buffer, withTail: boolean): string[] {
  const records = textRecords(data);
  if (!withTail && data.length > 0 && data[data.length - 1] !== 0x0a) records.pop();
  return records.map((r) => r.text);
}

/** The seal of one segment file: its lines' hashes under a Merkle root. */
export function sealSegment(file: string, data: Buffer): SegmentSeal {
  const hashes = splitLines(data, true).filter((l) => l.trim() !== "").map((l) => lineHash(readChainLine(l)));
  return { file, lines: hashes.length, bytes: data.length, merkle_root: merkleRoot(hashes) };
}

/** A new, empty head. */
export const emptyHead = (): LedgerHead => ({ schema_version: 1, entries: 0, last_hash: GENESIS_HASH, active_bytes: 0, legacy: null, segments: [], open: {}, updated_at: new Date().toISOString() });

/**
 * Moves `head` past lines written after it: a sealed line that continues the chain advances the
 * tip (and the open receipts); lines before the first sealed one of a ledger with no chain yet
 * are legacy. Anything else (a torn or tampered line) is left for verify.
 */
export function advanceHead(head: LedgerHead, lines: readonly string[]): void {
  for (const text of lines) {
    if (text.trim() === "") continue;
    const line = readChainLine(text);
    if (line.kind !== "sealed") {
      if (head.entries === 0) {
        head.legacy = { lines: (head.legacy?.lines ?? 0) + 1, last_hash: lineHash(line) };
        head.last_hash = lineHash(line);
      }
      continue;
    }
    if (!line.self_ok || line.seq !== head.entries || line.prev_hash !== head.last_hash) continue;
    noteEntry(head, line);
  }
}

/** Records one chained entry at the head's tip. */
export function noteEntry(head: LedgerHead, line: Extract<ChainLine, { kind: "sealed" }>): void {
  const receipt = String(line.value.receipt_id ?? "");
  if (line.value.kind === "tool_call_started") head.open[receipt] = line.seq;
  else delete head.open[receipt];
  head.entries = line.seq + 1;
  head.last_hash = line.entry_hash;
}

/**
 * Rebuilds a missing head from the ledger's files (segments in order, then the active file).
 * When the ledger already holds chained entries the rebuild is recorded, so verify can say so.
 */
export function rebuildHeadSync(paths: LedgerPaths, segments: readonly number[]): LedgerHead {
  const head = emptyHead();
  for (const n of segments) {
    const data = fs.readFileSync(path.join(paths.tracesDir, segmentName(n)));
    advanceHead(head, splitLines(data, true));
    head.segments.push(sealSegment(segmentName(n), data));
  }
  let active: Buffer = Buffer.alloc(0);
  try {
    active = fs.readFileSync(paths.active);
  } catch {
    /* no active file yet */
  }
  advanceHead(head, splitLines(active, false));
  head.active_bytes = active.length;
  if (head.entries > 0) head.rebuilt = [{ entries: head.entries, timestamp: new Date().toISOString() }];
  return head;
}

/**
 * The head brought up to what is on disk, as the writers see it under their lock (and as
 * reconciliation decides against it): rebuilt when missing; moved past lines a writer that died
 * between its append and the head's update left; with the seals of segments a writer that died
 * between a rotation and its seal left. Only reads: the caller writes it back, or not (verify).
 * @throws fs errors other than a missing active file.
 */
export function currentHeadSync(paths: LedgerPaths): LedgerHead {
  const head = readHeadSync(paths);
  if (!head) return rebuildHeadSync(paths, listSegmentsSync(paths));
  const size = fs.statSync(paths.active, { throwIfNoEntry: false })?.size ?? 0;
  if (size < head.active_bytes) {
    // A writer died between renaming the active file (its entries already in the head) and
    // recording the segment's seal; or the active file was truncated, which verify reports.
    const sealed = new Set(head.segments.map((s) => s.file));
    for (const n of listSegmentsSync(paths)) {
      const file = segmentName(n);
      if (!sealed.has(file)) head.segments.push(sealSegment(file, fs.readFileSync(path.join(paths.tracesDir, file))));
    }
  } else if (size > head.active_bytes) {
    // A writer died between its append and the head's update: the lines it wrote are on record.
    const fd = fs.openSync(paths.active, "r");
    try {
      const data = Buffer.alloc(size - head.active_bytes);
      fs.readSync(fd, data, 0, data.length, head.active_bytes);
      advanceHead(head, splitLines(data, false));
    } finally {
      fs.closeSync(fd);
    }
  }
  head.active_bytes = size;
  return head;
}
