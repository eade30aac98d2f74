/** Control Plane ledger integrity: entry hashes, chains and Merkle roots (source-formats §3.2). */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

import type { ControlPlaneLayout, DiscoveredLedger } from "@/lib/sources/control-plane/discover";
import { forEachLedgerLine, type LedgerLine } from "@/lib/sources/control-plane/ledger-lines";
import { parsePyJson, pyDumps, type PyValue } from "@/lib/json/python-json";
import { forEachTextRecord } from "@/lib/jsonl/text-lines";
import type { IntegrityIssueKind, IntegrityIssue, SegmentIntegrity, LedgerIntegrity } from "@/lib/sources/control-plane/schema";
export type { IntegrityIssueKind, IntegrityIssue, SegmentIntegrity, LedgerIntegrity };


export const MAX_ISSUES = 200;

/**
 * `entry_hash` of a parsed entry (source-formats.md §3.2): lowercase hex SHA-256 of the UTF-8 of
 * `json.dumps(entry_without_entry_hash, sort_keys=True, ensure_ascii=False)`. `prefix` is `sha256:`
 * for the per-session exec/evidence ledgers, `""` otherwise.
 */
export function computeEntryHash(entry: Map<string, PyValue>, prefix = ""): string {
  const copy = new Map(entry);
  copy.delete("entry_hash");
  return prefix + createHash("sha256").update(pyDumps(copy, { ensureAscii: false, sortKeys: true }), "utf8").digest("hex");
}

/**
 * Segment Merkle root (§3.2): pairwise SHA-256 hex of the two hex strings concatenated, an odd
 * last element paired with itself; a single hash is the root; no hash gives `""`.
 */
export function merkleRoot(hashes: readonly string[]): string {
  if (hashes.length === 0) return "";
  let level = [...hashes];
  while (level.length > 1) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const a = level[i]!;
      const b = level[i + 1] ?? a;
      next.push(createHash("sha256").update(a + b, "utf8").digest("hex"));
    }
    level = next;
  }
  return level[0]!;
}

/**
 * Verifies one ledger line after line (segments in order): the hash chain rules of §3.2.
 * Feed segments with {@link ChainVerifier.beginSegment} then {@link ChainVerifier.push}; read the
 * verdict with {@link ChainVerifier.finish}. Blank lines are skipped (Python's reader skips them).
 */
export class ChainVerifier {
  private readonly issues: IntegrityIssue[] = [];
  private errors = 0;
  private warnings = 0;
  private firstBroken: LedgerIntegrity["first_broken"] = null;
  private counts = { entries: 0, hashed: 0, verified: 0, legacy: 0 };
  private readonly segments: SegmentIntegrity[] = [];
  private segment: (SegmentIntegrity & { hashes: string[]; started: boolean }) | null = null;
  /** The hash the next entry's previous_hash must carry; `""` at a chain start. */
  private expected = "";
  /** The last hash of the previous segment (cross-segment link), null for the first segment. */
  private previousSegmentLast: string | null = null;

  constructor(private readonly ledger: string) {}

  /** Starts a segment file (chain order). */
  beginSegment(file: string): void {
    this.closeSegment();
    this.segment = { file, lines: 0, entries: 0, hashed: 0, legacy: 0, first_entry_hash: "", last_entry_hash: "", merkle_root: "", index: "absent", hashes: [], started: false };
    this.expected = "";
  }

  /** Checks one line of the current segment. */
  push(l: Pick<LedgerLine, "line" | "text">): void {
    const seg = this.segment!;
    seg.lines = l.line;
    if (l.text.trim() === "") return;
    let parsed: PyValue;
    try {
      parsed = parsePyJson(l.text);
    } catch (error) {
      this.report("error", "malformed", seg.file, l.line, `not JSON: ${(error as Error).message}`);
      this.expected = "";
      return;
    }
    if (!(parsed instanceof Map)) {
      this.report("error", "malformed", seg.file, l.line, "not a JSON object");
      return;
    }
    this.counts.entries += 1;
    seg.entries += 1;
    const entryHash = parsed.get("entry_hash");
    if (typeof entryHash !== "string" && parsed.has("previous_hash")) {
      this.report("error", "hash_missing", seg.file, l.line, "entry has previous_hash but no entry_hash");
      this.expected = "";
      return;
    }
    if (typeof entryHash !== "string") {
      this.counts.legacy += 1;
      seg.legacy += 1;
      this.report("warning", "legacy", seg.file, l.line, "legacy entry without entry_hash; the chain restarts after it");
      this.expected = "";
      return;
    }
    this.counts.hashed += 1;
    seg.hashed += 1;
    const prefix = entryHash.startsWith("sha256:") ? "sha256:" : "";
    const computed = computeEntryHash(parsed, prefix);
    let ok = true;
    if (computed !== entryHash) {
      ok = false;
      this.report("error", "hash_mismatch", seg.file, l.line, `entry_hash ${short(entryHash)} does not match the entry (recomputed ${short(computed)})`);
    } else if (pyDumps(parsed, { ensureAscii: false }) !== l.text) {
      ok = false;
      this.report("error", "noncanonical", seg.file, l.line, "the line's bytes differ from the hashed entry's json.dumps text (edited whitespace or number spelling)");
    }
    const previous = parsed.get("previous_hash");
    const prev = typeof previous === "string" ? previous : null;
    const chainHead = !seg.started && seg.hashed === 1 && seg.legacy === 0;
    if (chainHead && this.previousSegmentLast === null && this.segments.length === 0 && prev !== "" && prev !== null) {
      // The entry's own hash covers previous_hash, so an edit here is still a hash_mismatch.
      this.report("warning", "predecessor_missing", seg.file, l.line, `the first available segment links to an earlier segment (${short(prev)}) that is not on disk`);
    } else if (chainHead && this.previousSegmentLast !== null) {
      if (prev === "") {
        this.report("warning", "cross_segment_unlinked", seg.file, l.line, "segment starts a fresh chain instead of carrying the previous segment's last hash");
      } else if (prev !== this.previousSegmentLast) {
        ok = false;
        this.report("error", "cross_segment_break", seg.file, l.line, `previous_hash ${short(prev)} is not the previous segment's last entry_hash ${short(this.previousSegmentLast)}`);
      }
    } else if (prev !== this.expected) {
      ok = false;
      this.report("error", "chain_break", seg.file, l.line, this.expected === "" ? `previous_hash ${short(prev)} should be "" (chain start)` : `previous_hash ${short(prev)} is not the prior entry's entry_hash ${short(this.expected)}`);
    }
    seg.started = true;
    if (ok) this.counts.verified += 1;
    if (seg.hashes.length === 0) seg.first_entry_hash = entryHash;
    seg.last_entry_hash = entryHash;
    seg.hashes.push(entryHash);
    this.expected = entryHash;
  }

  /** Compares closed segments with the ledger directory's index.jsonl rows (by segment file name). */
  checkIndex(rows: Record<string, unknown>[], indexName: string): void {
    this.closeSegment();
    for (const row of rows) {
      const name = typeof row.segment === "string" ? path.basename(row.segment) : null;
      if (!name) continue;
      const seg = this.segments.find((s) => s.file === name);
      if (!seg) {
        this.report("error", "index_missing_segment", indexName, null, `index.jsonl names segment ${name}, which is not on disk`);
        continue;
      }
      const diffs: string[] = [];
      if (row.merkle_root !== undefined && row.merkle_root !== seg.merkle_root) diffs.push(`merkle_root ${short(String(row.merkle_root))} ≠ ${short(seg.merkle_root)}`);
      if (typeof row.count === "number" && row.count !== seg.hashed && row.count !== seg.entries) diffs.push(`count ${row.count} ≠ ${seg.entries}`);
      if (typeof row.first_entry_hash === "string" && row.first_entry_hash !== seg.first_entry_hash) diffs.push("first_entry_hash differs");
      if (typeof row.last_entry_hash === "string" && row.last_entry_hash !== seg.last_entry_hash) diffs.push("last_entry_hash differs");
      seg.index = diffs.length ? "mismatch" : "match";
      if (diffs.length) this.report("error", "index_mismatch", seg.file, null, `index.jsonl rollup disagrees: ${diffs.join("; ")}`);
    }
  }

  /** The verdict. */
  finish(): LedgerIntegrity {
    this.closeSegment();
    const status = this.errors > 0 ? "broken" : this.counts.entries === 0 ? "empty" : "ok";
    return { ledger: this.ledger, status, ...this.counts, first_broken: this.firstBroken, error_count: this.errors, warning_count: this.warnings, issues: this.issues, segments: this.segments };
  }

  private closeSegment(): void {
    const seg = this.segment;
    if (!seg) return;
    const { hashes, started: _started, ...rest } = seg;
    this.segments.push({ ...rest, merkle_root: merkleRoot(hashes) });
    if (hashes.length > 0) this.previousSegmentLast = seg.last_entry_hash;
    this.segment = null;
  }

  private report(severity: IntegrityIssue["severity"], kind: IntegrityIssueKind, file: string, line: number | null, message: string): void {
    if (severity === "error") {
      this.errors += 1;
      this.firstBroken ??= { file, line, kind, message };
    } else {
      this.warnings += 1;
    }
    if (this.issues.length < MAX_ISSUES) this.issues.push({ severity, kind, file, line, message });
  }
}

const short = (h: string | null): string => (h === null ? "(missing)" : h === "" ? '""' : h.length > 20 ? `${h.slice(0, 12)}…` : h);

/**
 * Verifies one discovered ledger from disk, streaming each segment (memory: one line at a time
 * plus the segment's entry hashes for its Merkle root), then its directory's `index.jsonl`.
 * Read-only. @throws the fs error when a segment cannot be read.
 */
export async function verifyLedger(ledger: DiscoveredLedger): Promise<LedgerIntegrity> {
  const v = new ChainVerifier(ledger.id);
  for (const file of ledger.segments) {
    v.beginSegment(path.basename(file));
    await forEachLedgerLine(file, (l) => v.push(l));
  }
  if (ledger.indexFile) {
    const segNames = new Set(ledger.segments.map((s) => path.basename(s)));
    const stemOf = (name: string) => name.replace(/(-\d{8}-\d{6})?\.jsonl$/, "");
    const rows = (await readIndexRows(ledger.indexFile)).filter((r) => typeof r.segment === "string" && (segNames.has(path.basename(r.segment)) || stemOf(path.basename(r.segment)) === ledger.stem));
    v.checkIndex(rows, "index.jsonl");
  }
  return v.finish();
}

/** Every ledger of a layout, verified in discovery order. */
export async function verifyControlPlane(layout: ControlPlaneLayout): Promise<LedgerIntegrity[]> {
  const out: LedgerIntegrity[] = [];
  for (const l of layout.ledgers) out.push(await verifyLedger(l));
  return out;
}

async function readIndexRows(file: string): Promise<Record<string, unknown>[]> {
  let data: Buffer;
  try {
    data = await fs.readFile(file);
  } catch {
    return [];
  }
  const rows: Record<string, unknown>[] = [];
  forEachTextRecord(data, (line) => {
    try {
      const v: unknown = JSON.parse(line);
      if (typeof v === "object" && v !== null && !Array.isArray(v)) rows.push(v as Record<string, unknown>);
    } catch {
      /* blank or malformed rollup rows carry nothing to compare */
    }
  });
  return rows;
}
