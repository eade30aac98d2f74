import fs from "node:fs/promises";

import { readBlob } from "@/lib/ledger/blobs";
import { LedgerIndex } from "@/lib/ledger/ledger-index";
import { type LedgerPaths, listSegments, segmentName } from "@/lib/ledger/paths";
import { writerIsGone } from "@/lib/ledger/reconcile";

/** One thing wrong with a ledger, located as precisely as possible. */
export type VerifyFinding = { kind: string; message: string; file?: string; line?: number; receipt_id?: string };

/** The verdict of `casefile audit verify`. `in_flight`: receipts whose live writer has not finished yet. */
export type VerifyReport = { ok: boolean; entries: number; receipts: number; segments: number; blobs: number; in_flight: number; findings: VerifyFinding[] };

/**
 * Checks a ledger end to end with a fresh index (never the cached one, never the lock): segments
 * numbered 1..N without gaps; no malformed, torn or duplicate line; every started entry has exactly
 * one finished entry (one still running in a live process is counted as in flight, not a
 * finding) and every finished one a started; every referenced blob exists and every blob in
 * `inputs/` recomputes to its name. `ok` when there are no findings.
 */
export async function verifyLedger(paths: LedgerPaths): Promise<VerifyReport> {
  const findings: VerifyFinding[] = [];
  const segments = await listSegments(paths);
  segments.forEach((n, i) => {
    if (n !== i + 1) findings.push({ kind: "segment_gap", file: segmentName(n), message: `segment ${segmentName(n)} follows ${i === 0 ? "nothing" : segmentName(segments[i - 1]!)}; expected ${segmentName(i + 1)}` });
  });
  const index = new LedgerIndex(paths);
  await index.refresh();
  for (const p of index.problems) findings.push({ kind: p.kind, file: p.file, line: p.line, message: p.message });
  if (index.tornTail) findings.push({ kind: "torn_line", file: index.tornTail.file, message: `the last line is unterminated (${index.tornTail.bytes} bytes at offset ${index.tornTail.offset}): a writer died mid-append` });
  let inFlight = 0;
  const referenced = new Map<string, string>();
  for (const [id, r] of index.receipts) {
    if (!r.started) findings.push({ kind: "finish_without_start", receipt_id: id, message: `receipt ${id} has a finished entry but no started entry` });
    else if (!r.finished) {
      if (writerIsGone(r.started)) findings.push({ kind: "orphan", receipt_id: id, message: `receipt ${id} (${r.started.tool_name}) has no finished entry and its process is gone; start any door to reconcile it` });
      else inFlight += 1;
    }
    if (r.started) referenced.set(r.started.input_hash, id);
    if (r.finished?.output_hash) referenced.set(r.finished.output_hash, id);
  }
  const names = (await fs.readdir(paths.inputsDir).catch(() => [] as string[])).filter((n) => !n.startsWith("."));
  for (const name of names) {
    const blob = await readBlob(paths, name);
    if (blob.state !== "present" || !blob.verified) findings.push({ kind: "blob_hash", file: `inputs/${name}`, message: `blob inputs/${name} does not recompute to its name${blob.state === "present" ? ` (sha256 ${blob.actual_hash})` : ""}` });
  }
  const present = new Set(names);
  for (const [hash, id] of referenced) {
    if (!present.has(hash)) findings.push({ kind: "blob_missing", receipt_id: id, file: `inputs/${hash}`, message: `blob inputs/${hash} referenced by receipt ${id} is missing` });
  }
  return { ok: findings.length === 0, entries: index.entries.length, receipts: index.receipts.size, segments: segments.length, blobs: names.length, in_flight: inFlight, findings };
}
