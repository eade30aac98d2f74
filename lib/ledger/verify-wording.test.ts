import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { deadPid, finished, started } from "@/lib/ledger/__fixtures__/entries";
import { Ledger } from "@/lib/ledger/ledger-store";
import { listSegments, segmentName } from "@/lib/ledger/paths";
import { reconcileOrphans } from "@/lib/ledger/reconcile";
import { verifyLedger } from "@/lib/ledger/verify";

/*
 * Issue 35 item 9: what `casefile audit verify` says must be once per fault and true. A deleted
 * segment is one finding (not one per later segment); a call without a finish says what will
 * happen to it, and still says something true after a door has started.
 */

const tempLedger = async (segmentBytes = 10 * 1024 * 1024): Promise<Ledger> => new Ledger(await fs.mkdtemp(path.join(os.tmpdir(), "casefile-verify-")), { segmentBytes });

/** A ledger of `calls` finished calls rotated into small segments. */
async function rotated(calls: number): Promise<Ledger> {
  const ledger = await tempLedger(4096);
  for (let i = 0; i < calls; i++) {
    const s = started();
    await ledger.append([s]);
    await ledger.append([finished(s)]);
  }
  return ledger;
}

const segmentFindings = async (ledger: Ledger) => (await verifyLedger(ledger.paths)).findings.filter((f) => f.kind.startsWith("segment"));
/** Findings about calls without a finished entry (the fixtures' blobs are not stored). */
const openCallFindings = async (ledger: Ledger) => (await verifyLedger(ledger.paths)).findings.filter((f) => ["orphan", "orphan_legacy", "finish_deleted"].includes(f.kind));
const lines = async (file: string): Promise<string[]> => (await fs.readFile(file, "utf8")).split("\n").slice(0, -1);

describe("audit verify wording", () => {
  it("a deleted segment is reported once, naming it, whichever segment it was", async () => {
    const ledger = await rotated(40);
    const segments = await listSegments(ledger.paths);
    expect(segments.length).toBeGreaterThanOrEqual(5);
    expect(await segmentFindings(ledger)).toEqual([]);
    const file = (n: number) => path.join(ledger.paths.tracesDir, segmentName(n));
    const saved = new Map(await Promise.all(segments.map(async (n) => [n, await fs.readFile(file(n))] as const)));
    const restore = () => Promise.all(segments.map((n) => fs.writeFile(file(n), saved.get(n)!)));

    await fs.rm(file(2));
    const one = await segmentFindings(ledger);
    expect(one).toEqual([{ kind: "segment_missing", file: segmentName(2), message: `segment ${segmentName(2)} is missing (before ${segmentName(3)})` }]);
    // No later segment is reported as out of place.
    const all = (await verifyLedger(ledger.paths)).findings;
    for (const n of segments.slice(2)) expect(all.some((f) => f.message.includes(`expected ${segmentName(n)}`) || (f.kind.startsWith("segment") && f.file === segmentName(n)))).toBe(false);

    await fs.rm(file(3));
    expect(await segmentFindings(ledger)).toEqual([{ kind: "segment_missing", file: segmentName(2), message: `segments ${segmentName(2)}–${segmentName(3)} (2) are missing (before ${segmentName(4)})` }]);
    await restore();

    await fs.rm(file(1));
    expect(await segmentFindings(ledger)).toEqual([expect.objectContaining({ kind: "segment_missing", file: segmentName(1) })]);
    await restore();

    // The last segment leaves no gap in the numbering: the head's seal says it existed.
    const last = segments.at(-1)!;
    await fs.rm(file(last));
    expect(await segmentFindings(ledger)).toEqual([{ kind: "segment_missing", file: segmentName(last), message: `segment ${segmentName(last)} is missing (after ${segmentName(last - 1)}, sealed in the head)` }]);
    await restore();
    expect(await segmentFindings(ledger)).toEqual([]);
    expect((await verifyLedger(ledger.paths)).chain).toMatchObject({ state: "intact", first_break: null });
  });

  it("a deleted finish is named as deleted and never promised to reconciliation, before and after a door has started", async () => {
    const ledger = await tempLedger();
    const gone = started({ pid: deadPid(), process_id: "gone" });
    await ledger.append([gone]);
    await ledger.append([finished(gone)]);
    const later = started();
    await ledger.append([later, finished(later)]);
    const text = await lines(ledger.paths.active);
    await fs.writeFile(ledger.paths.active, [text[0]!, ...text.slice(2)].map((l) => `${l}\n`).join(""));

    const expected = {
      kind: "finish_deleted",
      receipt_id: gone.receipt_id,
      message: `receipt ${gone.receipt_id} (read_session_lines) has no finished entry and its process is gone; the head recorded its finish, so that entry was deleted from the ledger; reconciliation never replaces a deleted finish`,
    };
    const before = await verifyLedger(ledger.paths);
    expect(before.findings).toContainEqual(expected);
    expect(before.findings.some((f) => /start any door|finishes it as crashed/.test(f.message))).toBe(false);
    // A door starts: it reconciles nothing, and verify says the same true thing.
    expect(await reconcileOrphans(ledger)).toEqual([]);
    const after = await verifyLedger(ledger.paths);
    expect(after.findings).toContainEqual(expected);
    expect(after.findings.filter((f) => f.receipt_id === gone.receipt_id)).toHaveLength(1);
  });

  it("a real orphan is promised to the next door's start, which keeps the promise; a legacy one is said to stay as it is", async () => {
    const ledger = await tempLedger();
    await fs.mkdir(ledger.paths.tracesDir, { recursive: true });
    const legacy = started({ pid: deadPid(), process_id: "gone-before-the-chain" });
    await fs.writeFile(ledger.paths.active, `${JSON.stringify(legacy)}\n`);
    const orphan = started({ pid: deadPid(), process_id: "gone" });
    await ledger.append([orphan]);

    const before = await openCallFindings(ledger);
    expect(before).toEqual([
      { kind: "orphan_legacy", receipt_id: legacy.receipt_id, message: `receipt ${legacy.receipt_id} (read_session_lines) has no finished entry and its process is gone; it precedes the hash chain, and reconciliation only finishes chained calls` },
      { kind: "orphan", receipt_id: orphan.receipt_id, message: `receipt ${orphan.receipt_id} (read_session_lines) has no finished entry and its process is gone; the next door to start (a casefile command, the MCP server or the dashboard) finishes it as crashed` },
    ]);
    expect(await reconcileOrphans(ledger)).toEqual([orphan.receipt_id]);
    expect(await openCallFindings(ledger)).toEqual([before[0]]);
  });
});
