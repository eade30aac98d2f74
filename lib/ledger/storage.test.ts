/** Tests of audit blob storage. */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { corpusSessions, corpusWorkspace } from "@/lib/ledger/__fixtures__/corpus-workspace";
import { persistBlob, readBlob, REFERENCE_MIN_CHARS } from "@/lib/ledger/blobs";
import { canonicalJson, sha256Text } from "@/lib/json/canonical-json";
import { getLedger } from "@/lib/ledger/ledger-store";
import { ledgerPaths } from "@/lib/ledger/paths";
import { parseAge, pruneBlobs } from "@/lib/ledger/retention";
import { verifyLedger } from "@/lib/ledger/verify";
import { HAS_SHARED, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { callTool } from "@/lib/tools/registry";

/*
 * Bounded audit storage (issue 26): blobs compressed and de-duplicated, large reads stored as a
 * reference to their source bytes, retention that removes blobs (never ledger lines) and shows
 * them as pruned.
 */

const tmpLedger = async () => ledgerPaths(await fs.mkdtemp(path.join(os.tmpdir(), "casefile-storage-")));

const bigValue = (n: number) => ({ status: "ok", records: Array.from({ length: n }, (_, i) => ({ line: i + 1, text: `line ${i} ${"lorem ipsum dolor ".repeat(8)}` })) });

describe("audit blobs", () => {
  it("store outputs gzip-compressed once per content, read back hash-verified; inputs stay canonical JSON text (seed 002)", async () => {
    const paths = await tmpLedger();
    const value = bigValue(500);
    const text = canonicalJson(value);
    const input = await persistBlob(paths, { ...value, input: true });
    expect(await fs.readFile(path.join(paths.inputsDir, input.hash), "utf8")).toBe(canonicalJson({ ...value, input: true }));
    const a = await persistBlob(paths, value, { compress: true });
    const b = await persistBlob(paths, JSON.parse(JSON.stringify(value)), { compress: true });
    expect(b).toEqual(a);
    expect(a.hash).toBe(sha256Text(text));
    expect((await fs.readdir(paths.inputsDir)).filter((n) => !n.startsWith(".")).sort()).toEqual([a.hash, input.hash].sort());
    const stored = await fs.readFile(path.join(paths.inputsDir, a.hash));
    expect([stored[0], stored[1]]).toEqual([0x1f, 0x8b]);
    expect(stored.length).toBeLessThan(text.length / 5);
    expect(await readBlob(paths, a.hash)).toMatchObject({ state: "present", verified: true, value });
    // A damaged compressed blob does not verify.
    stored[stored.length - 3] = stored[stored.length - 3]! ^ 0xff;
    await fs.writeFile(path.join(paths.inputsDir, a.hash), stored);
    expect(await readBlob(paths, a.hash)).toMatchObject({ verified: false });
  });

  it("store a large output with a reported source as a reference to its bytes, verified while the bytes are unchanged", async () => {
    const paths = await tmpLedger();
    const source = path.join(path.dirname(paths.root), "session.jsonl");
    await fs.writeFile(source, "x".repeat(1000) + "the window's bytes".repeat(100) + "y".repeat(1000));
    const value = bigValue(1000);
    expect(canonicalJson(value).length).toBeGreaterThan(REFERENCE_MIN_CHARS);
    const blob = await persistBlob(paths, value, { compress: true, source: { path: source, start: 1000, end: 2800 } });
    const file = await fs.stat(path.join(paths.inputsDir, blob.hash));
    expect(file.size).toBeLessThan(400);
    expect(await readBlob(paths, blob.hash)).toMatchObject({ state: "reference", verified: true, value: { casefile_blob: "source_ref", output_hash: blob.hash, path: source, start: 1000, end: 2800 } });
    // A small output is stored whole even with a source.
    const small = await persistBlob(paths, { status: "ok" }, { compress: true, source: { path: source, start: 0, end: 10 } });
    expect(await readBlob(paths, small.hash)).toMatchObject({ state: "present", verified: true });
    // The source changed: the reference no longer verifies, and verify does not call the ledger broken for it.
    await fs.writeFile(source, "z".repeat(3000));
    expect(await readBlob(paths, blob.hash)).toMatchObject({ state: "reference", verified: false });
    const report = await verifyLedger(paths);
    expect(report).toMatchObject({ ok: true, blob_states: { references: 1, references_stale: 1 } });
  });
});

describe.skipIf(!HAS_SHARED)(`blob retention${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("prunes by age and by size cap, records each removal, never touches ledger lines, and shows pruned blobs as pruned", async () => {
    const root = await corpusWorkspace();
    const ledger = getLedger(root);
    const ctx = createCoreContext(root);
    for (let i = 0; i < 4; i++) await callTool(ctx, "list_projects", { n: i }, { door: "cli" });
    const before = await fs.readFile(ledger.paths.active);
    const names = (await fs.readdir(ledger.paths.inputsDir)).filter((n) => !n.startsWith("."));
    // Age the input blobs of the first two calls.
    const index = await ledger.read();
    const firstInputs = index.entries.filter((e) => e.entry.kind === "tool_call_started").slice(0, 2).map((e) => (e.entry.kind === "tool_call_started" ? e.entry.input_hash : ""));
    const old = new Date(Date.now() - 40 * 86_400_000);
    for (const h of firstInputs) await fs.utimes(path.join(ledger.paths.inputsDir, h), old, old);

    const report = await pruneBlobs(ledger.paths, { olderThanMs: parseAge("30d") });
    expect(report).toMatchObject({ removed: 2, kept: names.length - 2 });
    expect(await fs.readFile(ledger.paths.active)).toEqual(before);
    expect(await readBlob(ledger.paths, firstInputs[0]!)).toMatchObject({ state: "pruned" });
    const verified = await verifyLedger(ledger.paths);
    expect(verified).toMatchObject({ ok: true, blob_states: { pruned: 2 } });
    const receipt = index.entries.find((e) => e.entry.kind === "tool_call_started")!.entry.receipt_id;
    const inspected = await callTool(ctx, "inspect_ledger_task", { receipt_id: receipt }, { door: "cli" });
    expect(inspected).toMatchObject({ receipts: [{ input: { state: "pruned", pruned_at: expect.any(String) }, output: { state: "present", verified: true } }] });

    // A size cap removes the oldest blobs until the rest fit.
    const capped = await pruneBlobs(ledger.paths, { maxBytes: 1 });
    expect(capped.kept_bytes).toBeLessThanOrEqual(1);
    expect((await verifyLedger(ledger.paths)).ok).toBe(true);
    // A blob that is not on record as pruned is still missing.
    await callTool(ctx, "list_projects", { n: 99 }, { door: "cli" });
    const latest = (await ledger.read()).entries.at(-2)!.entry;
    await fs.rm(path.join(ledger.paths.inputsDir, latest.kind === "tool_call_started" ? latest.input_hash : ""));
    expect((await verifyLedger(ledger.paths)).findings).toContainEqual(expect.objectContaining({ kind: "blob_missing" }));
  });
});

describe.skipIf(!HAS_SHARED)(`read_session_lines on the record${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("stores a large window as a reference to its session bytes, inspected as a verified reference", async () => {
    const root = await corpusWorkspace();
    const { projectKey, sessions } = await corpusSessions(root);
    const ctx = createCoreContext(root);
    let found = false;
    for (const s of sessions) {
      const last = Math.min(100, Math.max(...s.turns.map((t) => t.turn_end_line)));
      const result = await callTool(ctx, "read_session_lines", { project_key: projectKey, session_ref: s.ref, start_line: 1, end_line: last, mode: "full" }, { door: "cli" }).catch(() => null);
      if (!result || result.status !== "ok" || canonicalJson(result).length < REFERENCE_MIN_CHARS) continue;
      const index = await getLedger(root).read();
      const finished = index.entries.at(-1)!.entry;
      const inspected = await callTool(ctx, "inspect_ledger_task", { receipt_id: finished.receipt_id }, { door: "cli" });
      expect(inspected).toMatchObject({ receipts: [{ output: { state: "reference", verified: true, value: { casefile_blob: "source_ref" } } }] });
      found = true;
      break;
    }
    expect(found).toBe(true);
    expect((await verifyLedger(getLedger(root).paths)).ok).toBe(true);
  });
});
