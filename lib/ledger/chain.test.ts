/** Tests of the audit ledger's hash chain. */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { deadPid, finished, started } from "@/lib/ledger/__fixtures__/entries";
import { GENESIS_HASH } from "@/lib/ledger/chain";
import { readHeadSync, writeHeadSync } from "@/lib/ledger/head";
import { Ledger } from "@/lib/ledger/ledger-store";
import { listSegments, segmentName } from "@/lib/ledger/paths";
import { reconcileOrphans } from "@/lib/ledger/reconcile";
import type { StartedEntry } from "@/lib/ledger/schema";
import { verifyChain, verifyLedger } from "@/lib/ledger/verify";

/*
 * The tamper-evident ledger (issue 26): every kind of break is named at its line, a deletion is
 * not laundered by reconciliation, legacy lines verify as unchained, rotated segments are sealed.
 */

/** A ledger of `calls` calls (started then finished each), the third one a failure. */
async function ledgerWith(calls: number, segmentBytes = 10 * 1024 * 1024): Promise<{ ledger: Ledger; receipts: StartedEntry[] }> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "casefile-chain-"));
  const ledger = new Ledger(root, { segmentBytes });
  const receipts: StartedEntry[] = [];
  for (let i = 0; i < calls; i++) {
    const s = started({ tool_name: i % 2 ? "list_sessions" : "read_session_lines" });
    receipts.push(s);
    await ledger.append([s]);
    await ledger.append([finished(s, i === 2 ? "failure" : "success")]);
  }
  return { ledger, receipts };
}

const lines = async (file: string): Promise<string[]> => (await fs.readFile(file, "utf8")).split("\n").slice(0, -1);
const writeLines = (file: string, text: string[]): Promise<void> => fs.writeFile(file, text.map((l) => `${l}\n`).join(""));

async function firstBreak(ledger: Ledger) {
  return (await verifyChain(ledger.paths, await listSegments(ledger.paths))).first_break;
}

describe("the audit ledger's hash chain", () => {
  it("seals every entry beside the seed's fields and keeps the head at the chain's tip", async () => {
    const { ledger } = await ledgerWith(5);
    const text = await lines(ledger.paths.active);
    const entries = text.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(entries[0]!.prev_hash).toBe(GENESIS_HASH);
    for (let i = 1; i < entries.length; i++) expect(entries[i]!.prev_hash).toBe(entries[i - 1]!.entry_hash);
    // The seed's fields are all still there, unchanged.
    expect(entries[0]).toMatchObject({ kind: "tool_call_started", input_hash: "0".repeat(64), tool_name: "read_session_lines" });
    const head = readHeadSync(ledger.paths)!;
    expect(head).toMatchObject({ entries: 10, last_hash: entries[9]!.entry_hash, open: {} });
    const report = await verifyLedger(ledger.paths);
    expect(report.chain).toMatchObject({ state: "intact", chained: 10, first_break: null, legacy_lines: 0 });
  });

  it("names an edited started entry (tool_name) and an edited finish (failure → success, denied → success)", async () => {
    const { ledger, receipts } = await ledgerWith(5);
    const original = await lines(ledger.paths.active);
    const text = [...original];
    text[4] = text[4]!.replace('"tool_name":"read_session_lines"', '"tool_name":"delete_evidence_chain"');
    await writeLines(ledger.paths.active, text);
    expect(await firstBreak(ledger)).toMatchObject({ kind: "edited", file: "tool-traces.jsonl", line: 5 });

    const finishLine = original.findIndex((l) => l.includes(receipts[2]!.receipt_id) && l.includes('"result":"failure"'));
    const edited = [...original];
    edited[finishLine] = edited[finishLine]!.replace('"result":"failure"', '"result":"success"');
    await writeLines(ledger.paths.active, edited);
    expect(await firstBreak(ledger)).toMatchObject({ kind: "edited", line: finishLine + 1 });
    const report = await verifyLedger(ledger.paths);
    expect(report.ok).toBe(false);
  });

  it("names a line replaced by a self-consistent one (its own hash recomputed) through the next entry's prev_hash", async () => {
    const { ledger } = await ledgerWith(3);
    const text = await lines(ledger.paths.active);
    const { sealEntry } = await import("@/lib/ledger/chain");
    const entry = JSON.parse(text[3]!) as Record<string, unknown>;
    const forged = sealEntry({ ...entry, result: "denied" }, { seq: entry.seq as number, hash: entry.prev_hash as string });
    text[3] = forged.line;
    await writeLines(ledger.paths.active, text);
    expect(await firstBreak(ledger)).toMatchObject({ kind: "edited", line: 4 });
  });

  it("names deleted calls in the middle and a deleted last call (truncated)", async () => {
    const { ledger } = await ledgerWith(5);
    const original = await lines(ledger.paths.active);
    await writeLines(ledger.paths.active, [...original.slice(0, 4), ...original.slice(6)]);
    expect(await firstBreak(ledger)).toMatchObject({ kind: "deleted", file: "tool-traces.jsonl", line: 5, message: expect.stringContaining("#4–#5") });
    await writeLines(ledger.paths.active, original.slice(0, 8));
    expect(await firstBreak(ledger)).toMatchObject({ kind: "truncated", line: 9, message: expect.stringContaining("#8–#9") });
  });

  it("names reordered entries", async () => {
    const { ledger } = await ledgerWith(4);
    const text = await lines(ledger.paths.active);
    [text[3], text[4]] = [text[4]!, text[3]!];
    await writeLines(ledger.paths.active, text);
    expect(await firstBreak(ledger)).toMatchObject({ kind: "reordered", line: 4 });
  });

  it("names a head that disagrees with the ledger, a missing head, and a tampered segment seal", async () => {
    const { ledger } = await ledgerWith(3);
    const head = readHeadSync(ledger.paths)!;
    writeHeadSync(ledger.paths, { ...head, last_hash: "f".repeat(64) });
    expect(await firstBreak(ledger)).toMatchObject({ kind: "head_mismatch" });
    for (const slot of ledger.paths.headSlots) await fs.rm(slot, { force: true });
    expect(await firstBreak(ledger)).toMatchObject({ kind: "head_mismatch", message: expect.stringContaining("missing") });
    // The next append rebuilds the head, and verify keeps saying so.
    await ledger.append([started()]);
    expect(await firstBreak(ledger)).toMatchObject({ kind: "head_mismatch", message: expect.stringContaining("rebuilt") });

    const rotated = await ledgerWith(30, 4096);
    const segs = await listSegments(rotated.ledger.paths);
    expect(segs.length).toBeGreaterThan(1);
    const sealed = readHeadSync(rotated.ledger.paths)!;
    expect(sealed.segments.map((s) => s.file)).toEqual(segs.map(segmentName));
    expect(sealed.segments.every((s) => /^[0-9a-f]{64}$/.test(s.merkle_root))).toBe(true);
    expect(await firstBreak(rotated.ledger)).toBeNull();
    writeHeadSync(rotated.ledger.paths, { ...sealed, segments: sealed.segments.map((s, i) => (i === 0 ? { ...s, merkle_root: "e".repeat(64) } : s)) });
    expect(await firstBreak(rotated.ledger)).toMatchObject({ kind: "head_mismatch", file: segmentName(1) });
  });

  it("keeps the head in two slots: a torn write of the newer one falls back to the older, which the next append moves past", async () => {
    const { ledger } = await ledgerWith(3);
    const head = readHeadSync(ledger.paths)!;
    const slots = await Promise.all(ledger.paths.headSlots.map((f) => fs.readFile(f, "utf8").then((t) => JSON.parse(t) as { counter: number })));
    const newer = ledger.paths.headSlots[slots[0]!.counter > slots[1]!.counter ? 0 : 1];
    await fs.writeFile(newer, '{"counter":99,"sha256":"x","head":{"schema_ver');
    expect(readHeadSync(ledger.paths)!.entries).toBe(head.entries - 1);
    await ledger.append([started()]);
    expect(readHeadSync(ledger.paths)!.entries).toBe(head.entries + 1);
    expect(await firstBreak(ledger)).toBeNull();
  });

  it("chains across segments: a call deleted at a segment boundary, or a whole segment, is named", async () => {
    const { ledger } = await ledgerWith(30, 4096);
    const first = path.join(ledger.paths.tracesDir, segmentName(1));
    const text = await lines(first);
    await writeLines(first, text.slice(0, -1));
    expect(await firstBreak(ledger)).toMatchObject({ kind: "deleted", file: segmentName(2), line: 1 });
    await fs.rm(first);
    const report = await verifyLedger(ledger.paths);
    expect(report.chain.first_break).toMatchObject({ kind: "deleted", file: segmentName(2), line: 1 });
  });

  it("does not launder a deleted finish: reconciliation leaves the start alone and verify names the deletion", async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), "casefile-chain-"));
    const ledger = new Ledger(root);
    const gone = started({ pid: deadPid(), process_id: "gone" });
    await ledger.append([gone]);
    await ledger.append([finished(gone, "denied")]);
    const later = started();
    await ledger.append([later, finished(later)]);
    const text = await lines(ledger.paths.active);
    await writeLines(ledger.paths.active, [text[0]!, ...text.slice(2)]);
    // The start's writer is gone and it has no finish now, but the head saw it finished.
    expect(await reconcileOrphans(ledger)).toEqual([]);
    await ledger.append([started()]);
    expect(await reconcileOrphans(ledger)).toEqual([]);
    expect(await firstBreak(ledger)).toMatchObject({ kind: "deleted", line: 2 });

    // A real orphan (still open in the head) is reconciled as before.
    const orphan = started({ pid: deadPid(), process_id: "gone" });
    await ledger.append([orphan]);
    expect(await reconcileOrphans(ledger)).toEqual([orphan.receipt_id]);
  });

  it("verifies a ledger written before the chain as legacy, unchained, up to the first chained entry", async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), "casefile-chain-"));
    const ledger = new Ledger(root);
    await fs.mkdir(ledger.paths.tracesDir, { recursive: true });
    const old = [started(), started()];
    await writeLines(ledger.paths.active, old.flatMap((s) => [JSON.stringify(s), JSON.stringify(finished(s))]));
    expect((await verifyLedger(ledger.paths)).chain).toMatchObject({ state: "legacy", legacy_lines: 4, chained: 0, first_break: null });
    const next = started();
    await ledger.append([next, finished(next)]);
    const report = await verifyLedger(ledger.paths);
    expect(report.chain).toMatchObject({ state: "intact", legacy_lines: 4, legacy_through: "tool-traces.jsonl:4", chained: 2, first_break: null });
    expect(report.entries).toBe(6);
    // The last legacy line is bound by the first chained entry's prev_hash.
    const text = await lines(ledger.paths.active);
    text[3] = text[3]!.replace('"result":"success"', '"result":"failure"');
    await writeLines(ledger.paths.active, text);
    expect(await firstBreak(ledger)).toMatchObject({ kind: "edited", line: 4 });
  });

  it("names the line of one byte changed anywhere in any entry", async () => {
    const { ledger } = await ledgerWith(4);
    const original = await fs.readFile(ledger.paths.active);
    const starts = [0];
    for (let i = 0; i < original.length - 1; i++) if (original[i] === 0x0a) starts.push(i + 1);
    let checked = 0;
    for (let line = 0; line < starts.length; line++) {
      const from = starts[line]!;
      const to = (starts[line + 1] ?? original.length) - 1; // the newline stays
      for (const offset of [from, from + 1, Math.floor((from + to) / 2), to - 70, to - 2, to - 1]) {
        const bytes = Buffer.from(original);
        bytes[offset] = bytes[offset] === 0x41 ? 0x42 : 0x41;
        await fs.writeFile(ledger.paths.active, bytes);
        const found = await firstBreak(ledger);
        expect(found, `byte ${offset} of line ${line + 1}`).toMatchObject({ kind: "edited", line: line + 1 });
        checked += 1;
      }
    }
    expect(checked).toBe(starts.length * 6);
  });
});
