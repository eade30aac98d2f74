/** `casefile audit verify`: the ledger's hash chain, sealed segments and blobs checked. */
import fs from "node:fs/promises";
import path from "node:path";

import { listDir } from "@/lib/fs/list-dir";
import { forEachTextRecord } from "@/lib/jsonl/text-lines";
import { readBlob, readPruned } from "@/lib/ledger/blobs";
import { type ChainLine, GENESIS_HASH, lineHash, readChainLine } from "@/lib/ledger/chain";
import { currentHeadSync, type LedgerHead, readHeadSync, sealSegment } from "@/lib/ledger/head";
import { LedgerIndex } from "@/lib/ledger/ledger-index";
import { ACTIVE_NAME, type LedgerPaths, listSegments, segmentName } from "@/lib/ledger/paths";
import { openCallState } from "@/lib/ledger/reconcile";

/** The kinds of break in the hash chain (issue 26), in the words `casefile audit verify` prints. */
export type ChainBreakKind = "edited" | "deleted" | "reordered" | "truncated" | "head_mismatch";

/** One thing wrong with a ledger, located as precisely as possible. */
export type VerifyFinding = { kind: string; message: string; file?: string; line?: number; receipt_id?: string };

/**
 * The chain's verdict. `legacy_lines`: lines written before the chain ("legacy, unchained"), up to
 * `legacy_through`; `chained`: entries in an unbroken chain from the first; `first_break`: the
 * first broken entry (null when the chain holds); `head`: the head file's count and last hash.
 */
export type ChainReport = {
  state: "intact" | "broken" | "legacy" | "empty";
  legacy_lines: number;
  legacy_through: string | null;
  chained: number;
  first_break: (VerifyFinding & { kind: ChainBreakKind }) | null;
  head: { entries: number; last_hash: string } | null;
};

/**
 * Blobs by state: `stored` (the value, hash verified), `references` (a large output stored as its
 * source bytes' range and hash; `references_stale`: those bytes changed or are gone since),
 * `pruned` (referenced blobs removed by retention, on record in `audit/pruned.jsonl`).
 */
export type BlobCounts = { stored: number; references: number; references_stale: number; pruned: number };

/** The verdict of `casefile audit verify`. `in_flight`: receipts whose live writer has not finished yet. */
export type VerifyReport = { ok: boolean; entries: number; receipts: number; segments: number; blobs: number; blob_states: BlobCounts; in_flight: number; chain: ChainReport; findings: VerifyFinding[] };

/**
 * Checks a ledger end to end with a fresh index (never the cached one, never the lock): segments
 * numbered 1..N without gaps (each run of missing ones reported once, `segment_missing`); no
 * malformed, torn or duplicate line; every started entry has exactly one finished entry (one
 * still running in a live process, lib/ledger/process-identity, is counted as in flight, not a
 * finding; one whose process is gone is an `orphan` reconciliation will finish, a `finish_deleted`
 * whose finish the head saw, or an `orphan_legacy` before the chain, each saying what happens to
 * it) and every finished one a started; every referenced blob exists and every blob in `inputs/`
 * recomputes to its name. `ok` when there are no findings.
 */
export async function verifyLedger(paths: LedgerPaths): Promise<VerifyReport> {
  const findings: VerifyFinding[] = [];
  const segments = await listSegments(paths);
  // The head as reconciliation sees it, read before the index: which open calls it would finish.
  const head = currentHeadSync(paths);
  findings.push(...missingSegments(segments, head));
  const chain = await verifyChain(paths, segments);
  if (chain.first_break) findings.push(chain.first_break);
  const index = new LedgerIndex(paths);
  await index.refresh();
  const broken = chain.first_break;
  for (const p of index.problems) {
    // A line the chain already names as edited is not reported twice.
    if (!(broken && broken.file === p.file && broken.line === p.line)) findings.push({ kind: p.kind, file: p.file, line: p.line, message: p.message });
  }
  if (index.tornTail) findings.push({ kind: "torn_line", file: index.tornTail.file, message: `the last line is unterminated (${index.tornTail.bytes} bytes at offset ${index.tornTail.offset}): a writer died mid-append` });
  let inFlight = 0;
  const referenced = new Map<string, string>();
  for (const [id, r] of index.receipts) {
    if (!r.started) findings.push({ kind: "finish_without_start", receipt_id: id, message: `receipt ${id} has a finished entry but no started entry` });
    else if (!r.finished) {
      const state = openCallState(r.started, head);
      if (state === "in_flight") inFlight += 1;
      else findings.push({ kind: OPEN_CALL_KINDS[state], receipt_id: id, message: `receipt ${id} (${r.started.tool_name}) has no finished entry and its process is gone; ${OPEN_CALL_HINTS[state]}` });
    }
    if (r.started) referenced.set(r.started.input_hash, id);
    if (r.finished?.output_hash) referenced.set(r.finished.output_hash, id);
  }
  const names = await listDir(paths.inputsDir, { filter: (n) => !n.startsWith(".") });
  const blobs: BlobCounts = { stored: 0, references: 0, references_stale: 0, pruned: 0 };
  for (const name of names) {
    const blob = await readBlob(paths, name);
    if (blob.state === "reference") {
      // The output's source bytes changed or are gone: the reference can no longer be replayed; not a break of the ledger.
      blobs.references += 1;
      if (!blob.verified) blobs.references_stale += 1;
    } else if (blob.state === "present" && blob.verified) blobs.stored += 1;
    else findings.push({ kind: "blob_hash", file: `inputs/${name}`, message: `blob inputs/${name} does not recompute to its name${blob.state === "present" ? ` (sha256 ${blob.actual_hash})` : ""}` });
  }
  const present = new Set(names);
  const pruned = await readPruned(paths);
  for (const [hash, id] of referenced) {
    if (present.has(hash)) continue;
    if (pruned.has(hash)) blobs.pruned += 1;
    else findings.push({ kind: "blob_missing", receipt_id: id, file: `inputs/${hash}`, message: `blob inputs/${hash} referenced by receipt ${id} is missing (and not on record as pruned)` });
  }
  return { ok: findings.length === 0, entries: index.entries.length, receipts: index.receipts.size, segments: segments.length, blobs: names.length, blob_states: blobs, in_flight: inFlight, chain, findings };
}

/** Finding kinds of a call without a finished entry whose process is gone, by what reconciliation does with it. */
const OPEN_CALL_KINDS = { orphan: "orphan", finish_removed: "finish_deleted", legacy: "orphan_legacy" } as const;

/** What happens to such a call: true whether or not a door has started since (issue 35 item 9). */
const OPEN_CALL_HINTS = {
  orphan: "the next door to start (a casefile command, the MCP server or the dashboard) finishes it as crashed",
  finish_removed: "the head recorded its finish, so that entry was deleted from the ledger; reconciliation never replaces a deleted finish",
  legacy: "it precedes the hash chain, and reconciliation only finishes chained calls",
} as const;

/**
 * Segments that should be there and are not, one finding per run of consecutive missing numbers
 * (never one per later segment): segments are numbered from 1 without gaps up to the highest
 * present or sealed in the head (seed 002 "numbered segment file"; issue 26 seals).
 */
function missingSegments(segments: readonly number[], head: LedgerHead): VerifyFinding[] {
  const present = new Set(segments);
  const sealed = head.segments.map((s) => SEGMENT_NUMBER.exec(s.file)).flatMap((m) => (m ? [Number(m[1])] : []));
  const last = Math.max(0, ...segments, ...sealed);
  const out: VerifyFinding[] = [];
  for (let n = 1; n <= last; n += 1) {
    if (present.has(n)) continue;
    let end = n;
    while (end + 1 <= last && !present.has(end + 1)) end += 1;
    const before = segments.filter((k) => k < n).at(-1);
    const after = segments.find((k) => k > end);
    const where = after !== undefined ? `before ${segmentName(after)}` : before !== undefined ? `after ${segmentName(before)}, sealed in the head` : "sealed in the head";
    const what = end === n ? `segment ${segmentName(n)} is missing` : `segments ${segmentName(n)}–${segmentName(end)} (${end - n + 1}) are missing`;
    out.push({ kind: "segment_missing", file: segmentName(n), message: `${what} (${where})` });
    n = end;
  }
  return out;
}

const SEGMENT_NUMBER = /^tool-traces\.(\d{8})\.jsonl$/;

type Located = { file: string; line: number };
const at = (l: Located): string => `${l.file}:${l.line}`;

/**
 * Walks the hash chain through the segments and the active file (issue 26) and names its first
 * break: `edited` (a line's own hash no longer recomputes, a line no longer parses, or a line was
 * replaced by a self-consistent one so the next `prev_hash` differs), `deleted` (entries missing:
 * the next `seq` skips numbers that appear nowhere), `reordered` (a `seq` out of place that
 * appears elsewhere), `truncated` (the ledger ends before the head's count), `head_mismatch` (the
 * head's last hash or a segment's Merkle root disagrees with the files, or the head is missing or
 * was rebuilt). Lines before the first chained entry are legacy and only bound by its `prev_hash`.
 */
export async function verifyChain(paths: LedgerPaths, segments: readonly number[]): Promise<ChainReport> {
  const head = readHeadSync(paths);
  const files: { name: string; data: Buffer }[] = [];
  for (const n of segments) files.push({ name: segmentName(n), data: await fs.readFile(path.join(paths.tracesDir, segmentName(n))) });
  const active = await fs.readFile(paths.active).catch(() => null);
  if (active) files.push({ name: ACTIVE_NAME, data: active });

  const lines: { at: Located; line: ChainLine }[] = [];
  let torn: Located | null = null;
  for (const { name, data } of files) {
    // The active file's unterminated tail is never part of the chain.
    const tornTail = name === ACTIVE_NAME && data.length > 0 && data[data.length - 1] !== 0x0a;
    let n = 0;
    forEachTextRecord(tornTail ? data.subarray(0, data.lastIndexOf(0x0a) + 1) : data, (text) => {
      n += 1;
      if (text.trim() !== "") lines.push({ at: { file: name, line: n }, line: readChainLine(text) });
    });
    if (tornTail) torn = { file: name, line: n + 1 };
  }
  const present = new Set<number>();
  for (const { line } of lines) if (line.kind === "sealed" && line.self_ok) present.add(line.seq);

  const legacyLimit = head ? (head.legacy?.lines ?? 0) : Number.POSITIVE_INFINITY;
  let legacyLines = 0;
  let legacyThrough: Located | null = null;
  let legacyHash = GENESIS_HASH;
  let prev: { at: Located; seq: number; hash: string } | null = null;
  let pending: Located[] = []; // unsealed lines since the last chained entry
  let broken: ChainReport["first_break"] = null;
  const brk = (kind: ChainBreakKind, where: Located | null, message: string): void => {
    broken = { kind, message, ...(where ? { file: where.file, line: where.line } : {}) };
  };
  for (const { at: where, line } of lines) {
    // Legacy lines precede the chain; the head, when present, says how many there were.
    if (prev === null && pending.length === 0 && line.kind !== "sealed" && legacyLines < legacyLimit) {
      legacyLines += 1;
      legacyThrough = where;
      legacyHash = lineHash(line);
      continue;
    }
    if (line.kind !== "sealed") {
      pending.push(where);
      continue;
    }
    if (!line.self_ok) {
      brk("edited", where, `entry ${at(where)} was edited: its entry_hash no longer recomputes from its bytes`);
      break;
    }
    const expectSeq: number = prev ? prev.seq + 1 : 0;
    const expectPrev: string = prev ? prev.hash : legacyHash;
    if (line.seq === expectSeq && line.prev_hash === expectPrev) {
      prev = { at: where, seq: line.seq, hash: line.entry_hash };
      pending = []; // a torn line a dead writer left between two chained entries: reported as malformed
      continue;
    }
    if (pending.length > 0 && line.seq >= expectSeq) {
      brk("edited", pending[0]!, `entry ${at(pending[0]!)} was edited: it is no longer a sealed entry (entry #${expectSeq} expected there)`);
    } else if (line.seq === expectSeq) {
      const where2 = prev ? prev.at : legacyThrough;
      brk("edited", where2 ?? where, where2 ? `entry ${at(where2)} was edited or replaced: entry #${line.seq} at ${at(where)} carries a different prev_hash` : `entry ${at(where)} is the first chained entry but its prev_hash is not the genesis hash`);
    } else if (line.seq > expectSeq && !present.has(expectSeq)) {
      brk("deleted", where, `entr${line.seq - expectSeq === 1 ? "y" : "ies"} #${expectSeq}${line.seq - expectSeq > 1 ? `–#${line.seq - 1}` : ""} deleted before ${at(where)} (entry #${line.seq})`);
    } else {
      brk("reordered", where, `entry #${line.seq} at ${at(where)} is out of order: entry #${expectSeq} was expected there`);
    }
    break;
  }
  const chained = prev ? (prev as { seq: number }).seq + 1 : 0;
  const lastHash = prev ? (prev as { hash: string }).hash : legacyHash;
  const lastAt = lines.at(-1)?.at ?? { file: ACTIVE_NAME, line: 0 };
  if (!broken) {
    const after = torn ?? { file: lastAt.file, line: lastAt.line + 1 };
    if (head === null) {
      if (chained > 0) brk("head_mismatch", null, `the head file ${path.basename(paths.head)} is missing although ${chained} entries are chained`);
    } else if (head.entries > chained) {
      if (pending.length > 0) brk("edited", pending[0]!, `entry ${at(pending[0]!)} was edited: it is no longer a sealed entry (entry #${chained} expected there)`);
      else brk("truncated", after, `the ledger ends after entry #${chained - 1} but the head records ${head.entries} entries: entr${head.entries - chained === 1 ? "y" : "ies"} #${chained}${head.entries - chained > 1 ? `–#${head.entries - 1}` : ""} removed from the end (${at(after)})`);
    } else if (head.entries === chained && head.last_hash !== lastHash) {
      brk("head_mismatch", null, `the head's last hash ${head.last_hash.slice(0, 12)}… is not entry #${chained - 1}'s ${lastHash.slice(0, 12)}…`);
    } else if (head.rebuilt?.length) {
      brk("head_mismatch", null, `the head file was missing and was rebuilt from the ledger at ${head.rebuilt[0]!.entries} entries (${head.rebuilt[0]!.timestamp}); what preceded it is unproven`);
    } else if ((head.legacy?.lines ?? 0) !== legacyLines) {
      brk("head_mismatch", legacyThrough, `the head records ${head.legacy?.lines ?? 0} legacy lines; the ledger has ${legacyLines}`);
    } else {
      const mismatch = await segmentMismatch(head, files);
      if (mismatch) brk("head_mismatch", { file: mismatch, line: 1 }, `segment ${mismatch}'s Merkle root is not the one the head recorded when it was rotated`);
    }
  }
  const firstBreak = broken as ChainReport["first_break"];
  return {
    state: firstBreak ? "broken" : chained > 0 ? "intact" : legacyLines > 0 ? "legacy" : "empty",
    legacy_lines: legacyLines,
    legacy_through: legacyThrough ? at(legacyThrough) : null,
    chained,
    first_break: firstBreak,
    head: head ? { entries: head.entries, last_hash: head.last_hash } : null,
  };
}

/** The first rotated segment whose Merkle root differs from the head's seal (or has none), else null. */
async function segmentMismatch(head: LedgerHead, files: readonly { name: string; data: Buffer }[]): Promise<string | null> {
  const seals = new Map(head.segments.map((s) => [s.file, s]));
  for (const { name, data } of files) {
    if (name === ACTIVE_NAME) continue;
    const seal = seals.get(name);
    if (!seal || seal.merkle_root !== sealSegment(name, data).merkle_root) return name;
  }
  return null;
}
