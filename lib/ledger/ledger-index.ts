/** The audit ledger read into memory: entries, receipts and problems, refreshed incrementally. */
import fs from "node:fs/promises";
import path from "node:path";

import { forEachTextRecord } from "@/lib/jsonl/text-lines";
import { shareValue } from "@/lib/json/shared-values";
import { ACTIVE_NAME, type LedgerPaths, listSegments, segmentName } from "@/lib/ledger/paths";
import { type EntryLocation, type FinishedEntry, type LedgerEntry, ledgerEntrySchema, type StartedEntry } from "@/lib/ledger/schema";

/** A line that is not a valid entry, or a duplicate `receipt_id:kind`. */
export type LedgerProblem = { file: string; line: number; kind: "malformed" | "duplicate"; message: string };

/** An unterminated last line of the active file (a writer died mid-append, or one is appending now). */
export type TornTail = { file: string; offset: number; bytes: number };

/** One receipt: its started and finished entries, whichever are present. */
export type Receipt = { started?: StartedEntry; finished?: FinishedEntry };

/** An indexed entry with where it sits on disk. */
export type IndexedEntry = { entry: LedgerEntry; at: EntryLocation };

/**
 * The in-memory index of one ledger (seed 002 "in-memory index"). The first `refresh` reads every
 * segment in order and the active file; each later one reads only what was appended since: new
 * segments (the first of which is the former active file, read on from the old cursor when its
 * inode matches) and the active file's bytes after the cursor. The cursor only moves past
 * complete lines, so a line being appended is read once it is whole. Readers never lock.
 * Unlike the reference, a malformed line does not fail the read: it is skipped and reported.
 */
export class LedgerIndex {
  readonly entries: IndexedEntry[] = [];
  readonly receipts = new Map<string, Receipt>();
  readonly byTask = new Map<string, string[]>();
  readonly problems: LedgerProblem[] = [];
  /** The active file's unterminated tail at the last refresh, if any. */
  tornTail: TornTail | null = null;
  /** Bytes read from disk since construction (tests prove nothing is read twice). */
  bytesRead = 0;
  private maxSegment = 0;
  private cursor = 0;
  private activeLine = 0;
  private activeIno: number | null = null;
  private refreshing: Promise<void> | null = null;
  private readonly repeated = new RepeatedValues();

  constructor(private readonly paths: LedgerPaths) {}

  /** Reads what was appended since the last refresh (joins a refresh in flight). */
  refresh(): Promise<void> {
    this.refreshing ??= this.readNew().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async readNew(): Promise<void> {
    const segments = (await listSegments(this.paths)).filter((n) => n > this.maxSegment);
    for (const n of segments) {
      const file = path.join(this.paths.tracesDir, segmentName(n));
      const ino = await fs.stat(file).then((s) => s.ino, () => null);
      // The former active file, renamed: continue where the cursor stood.
      const continued = ino !== null && ino === this.activeIno;
      await this.readFrom(file, segmentName(n), continued ? this.cursor : 0, continued ? this.activeLine : 0, true);
      this.maxSegment = n;
      this.cursor = 0;
      this.activeLine = 0;
      this.activeIno = null;
    }
    const st = await fs.stat(this.paths.active).catch(() => null);
    if (!st) {
      this.tornTail = null;
      return;
    }
    if (this.activeIno !== null && (st.ino !== this.activeIno || st.size < this.cursor)) {
      // Replaced or truncated outside the ledger's rules: re-read it; duplicates are reported.
      this.problems.push({ file: ACTIVE_NAME, line: 0, kind: "malformed", message: "the active file was replaced or truncated; re-read from the start" });
      this.cursor = 0;
      this.activeLine = 0;
    }
    this.activeIno = st.ino;
    const done = await this.readFrom(this.paths.active, ACTIVE_NAME, this.cursor, this.activeLine, false);
    this.cursor = done.cursor;
    this.activeLine = done.line;
  }

  /** Reads `file` from `offset`; a sealed segment's unterminated tail is parsed too. */
  private async readFrom(file: string, name: string, offset: number, line: number, sealed: boolean): Promise<{ cursor: number; line: number }> {
    const handle = await fs.open(file, "r").catch(() => null);
    if (!handle) return { cursor: offset, line };
    try {
      const size = (await handle.stat()).size;
      if (size <= offset) {
        if (!sealed) this.tornTail = null;
        return { cursor: offset, line };
      }
      const buf = Buffer.allocUnsafe(size - offset);
      const { bytesRead } = await handle.read(buf, 0, buf.length, offset);
      this.bytesRead += bytesRead;
      const data = buf.subarray(0, bytesRead);
      const end = data.lastIndexOf(0x0a) + 1;
      const tail = data.length - end;
      // Whole records, and a sealed segment's unterminated tail as the last one.
      forEachTextRecord(sealed ? data : data.subarray(0, end), (text) => {
        line += 1;
        this.ingest(text, { file: name, line });
      });
      if (!sealed) this.tornTail = tail > 0 ? { file: name, offset: offset + end, bytes: tail } : null;
      return { cursor: offset + (sealed ? data.length : end), line };
    } finally {
      await handle.close();
    }
  }

  private ingest(text: string, at: EntryLocation): void {
    if (text.trim() === "") return;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      this.problems.push({ ...at, kind: "malformed", message: "not valid JSON (a torn or corrupted line)" });
      return;
    }
    const parsed = ledgerEntrySchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      this.problems.push({ ...at, kind: "malformed", message: `not a ledger entry: ${issue?.path.join(".") || "entry"}: ${issue?.message ?? "invalid"}` });
      return;
    }
    const entry = this.repeated.entry(parsed.data);
    const receipt = this.receipts.get(entry.receipt_id) ?? {};
    if (entry.kind === "tool_call_started") {
      if (receipt.started) return this.duplicate(entry, at);
      receipt.started = entry;
      const list = this.byTask.get(entry.task_id);
      if (list) list.push(entry.receipt_id);
      else this.byTask.set(entry.task_id, [entry.receipt_id]);
    } else {
      if (receipt.finished) return this.duplicate(entry, at);
      receipt.finished = entry;
    }
    this.receipts.set(entry.receipt_id, receipt);
    this.entries.push({ entry, at });
  }

  private duplicate(entry: LedgerEntry, at: EntryLocation): void {
    this.problems.push({ ...at, kind: "duplicate", message: `a second ${entry.kind} entry for receipt ${entry.receipt_id}` });
  }
}

/**
 * The values ledger entries repeat, each kept once for the whole index (issue 13: the index
 * lives as long as the process, and it grows with every call). Every call of a door repeats its
 * policy decisions and scope, most repeat their tool, task, door, process and input and output
 * hashes; a receipt id, a timestamp, a pid or a duration is an entry's own (about a third of the
 * heap as parsed, for a slightly slower first read; docs/performance.md). Entries are read-only:
 * shared values are frozen and registered as shared (lib/json/shared-values).
 */
class RepeatedValues {
  private readonly strings = new Map<string, string>();
  private readonly values = new Map<string, unknown>();

  /** `entry` with its repeated fields replaced by the values kept for them. */
  entry<E extends LedgerEntry>(entry: E): E {
    const out: Record<string, unknown> = {};
    for (const key in entry) {
      const value = (entry as Record<string, unknown>)[key];
      if (OWN_FIELDS.has(key)) out[key] = value;
      else if (typeof value === "string") out[key] = this.string(value);
      else if (typeof value === "object" && value !== null) out[key] = this.value(value);
      else out[key] = value;
    }
    return out as E;
  }

  private string(text: string): string {
    const kept = this.strings.get(text);
    if (kept !== undefined) return kept;
    this.strings.set(text, text);
    return text;
  }

  private value(value: object): unknown {
    const key = JSON.stringify(value);
    const kept = this.values.get(key);
    if (kept !== undefined) return kept;
    shareValue(value);
    this.values.set(key, value);
    return value;
  }
}

/** Fields whose values are an entry's own: never looked up among the repeated ones. */
const OWN_FIELDS = new Set(["receipt_id", "timestamp", "pid", "duration_ms", "note", "error", "seq", "prev_hash", "entry_hash"]);
