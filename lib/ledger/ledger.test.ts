/** Tests of the audit ledger. */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { chainForTurn } from "@/lib/evidence/__fixtures__/chains";
import { corpusSessions, corpusWorkspace } from "@/lib/ledger/__fixtures__/corpus-workspace";
import { deadPid, started } from "@/lib/ledger/__fixtures__/entries";
import { persistBlob } from "@/lib/ledger/blobs";
import { chainAuthors } from "@/lib/ledger/chain-authors";
import { canonicalJson, sha256Text } from "@/lib/json/canonical-json";
import { LedgerIndex } from "@/lib/ledger/ledger-index";
import { configureLedger, getLedger, Ledger } from "@/lib/ledger/ledger-store";
import { listSegments } from "@/lib/ledger/paths";
import { reconcileOrphans } from "@/lib/ledger/reconcile";
import type { StartedEntry } from "@/lib/ledger/schema";
import { verifyLedger } from "@/lib/ledger/verify";
import { HAS_SHARED, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { callTool } from "@/lib/tools/registry";

async function fileBytes(ledger: Ledger): Promise<number> {
  const names = await fs.readdir(ledger.paths.tracesDir);
  let total = 0;
  for (const n of names.filter((x) => x.endsWith(".jsonl"))) total += (await fs.stat(path.join(ledger.paths.tracesDir, n))).size;
  return total;
}

describe("the ledger's in-memory index", () => {
  it("keeps each repeated value once (frozen) and reads every entry back as written", async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), "casefile-ledger-repeat-"));
    const ledger = new Ledger(root);
    await fs.mkdir(ledger.paths.tracesDir, { recursive: true });
    const decisions = [
      { policy_id: "door.host", decision: "allow", reason: "Host 127.0.0.1:3000" },
      { policy_id: "tool.read_only", decision: "allow", reason: "read-only tool: approved without review" },
    ];
    const lines: string[] = [];
    for (let i = 0; i < 40; i++) {
      const s = started({ scope_enforced: [{ type: "path", pattern: `projects/p${i % 2}/**`, access: "read" }], input_hash: String(i % 3).repeat(64), input_ref: `inputs/${String(i % 3).repeat(64)}` });
      const finished = { schema_version: 1, kind: "tool_call_finished", receipt_id: s.receipt_id, timestamp: new Date(Date.UTC(2026, 10, 26, 6, 0, i)).toISOString(), result: "success", duration_ms: i, status: "ok", policy_decisions: i % 5 === 4 ? [...decisions, { policy_id: "input.schema", decision: "allow" }] : decisions, artifacts_written: [] };
      lines.push(JSON.stringify(s), JSON.stringify(finished));
    }
    await fs.writeFile(ledger.paths.active, `${lines.join("\n")}\n`);
    const index = new LedgerIndex(ledger.paths);
    await index.refresh();
    // As written: every field, in its order.
    expect(index.entries.map((e) => JSON.stringify(e.entry))).toEqual(lines);
    expect(index.problems).toEqual([]);
    const finished = index.entries.map((e) => e.entry).filter((e) => e.kind === "tool_call_finished");
    const startedEntries = index.entries.map((e) => e.entry).filter((e) => e.kind === "tool_call_started");
    // Equal values are one frozen value; different ones stay apart.
    expect(finished[1]!.policy_decisions).toBe(finished[0]!.policy_decisions);
    expect(finished[4]!.policy_decisions).not.toBe(finished[0]!.policy_decisions);
    expect(finished[9]!.policy_decisions).toBe(finished[4]!.policy_decisions);
    expect(Object.isFrozen(finished[0]!.policy_decisions) && Object.isFrozen(finished[0]!.policy_decisions[0])).toBe(true);
    expect(startedEntries[2]!.scope_enforced).toBe(startedEntries[0]!.scope_enforced);
    expect(startedEntries[1]!.scope_enforced).not.toBe(startedEntries[0]!.scope_enforced);
    expect(new Set(startedEntries.map((e) => e.receipt_id)).size).toBe(40);
  });
});

describe.skipIf(!HAS_SHARED)(`audit ledger on real corpus sessions${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("pairs a started and a finished entry per call, with the canonical-JSON SHA-256 of the input and its blob", async () => {
    const root = await corpusWorkspace();
    const { projectKey, sessions } = await corpusSessions(root);
    const ctx = createCoreContext(root);
    const ref = sessions[0]!.ref;
    const input = { session_ref: ref, project_key: projectKey, start_line: 1, end_line: 3 };
    const result = await callTool(ctx, "read_session_lines", input, { door: "cli" });
    expect(result.status).toBe("ok");
    const index = await getLedger(root).read();
    expect(index.entries.map((e) => e.entry.kind)).toEqual(["tool_call_started", "tool_call_finished"]);
    const receipt = index.receipts.get(index.entries[0]!.entry.receipt_id)!;
    expect(receipt.started).toMatchObject({ task_id: `${projectKey}/${ref}`, tool_name: "read_session_lines", door: "cli", input_hash: sha256Text(canonicalJson(input)) });
    expect(receipt.finished).toMatchObject({ result: "success", status: "ok", artifacts_written: [], output_hash: sha256Text(canonicalJson(result)) });
    const policies = receipt.finished!.policy_decisions.map((d) => `${d.policy_id}:${d.decision}`);
    expect(policies).toEqual(expect.arrayContaining(["door.cli:allow", "tool.read_only:allow", "input.schema:allow", "path.containment:allow"]));
    const blob = await fs.readFile(path.join(getLedger(root).paths.root, receipt.started!.input_ref), "utf8");
    expect(sha256Text(blob)).toBe(receipt.started!.input_hash);
    expect(JSON.parse(blob)).toEqual(input);

    // The same input in another key order hashes the same and reuses the blob.
    await callTool(ctx, "read_session_lines", { start_line: 1, end_line: 3, project_key: projectKey, session_ref: ref }, { door: "http" });
    const again = (await getLedger(root).read()).entries[2]!.entry as StartedEntry;
    expect(again.input_hash).toBe(receipt.started!.input_hash);
    expect((await verifyLedger(getLedger(root).paths)).ok).toBe(true);
  });

  it("never overwrites a blob, and verify names a blob that no longer recomputes", async () => {
    const root = await corpusWorkspace();
    const ledger = new Ledger(root);
    const first = await persistBlob(ledger.paths, { a: 1, b: [2, 3] });
    const file = path.join(ledger.paths.root, first.ref);
    await fs.writeFile(file, "tampered");
    const second = await persistBlob(ledger.paths, { b: [2, 3], a: 1 });
    expect(second).toEqual(first);
    expect(await fs.readFile(file, "utf8")).toBe("tampered");
    const report = await verifyLedger(ledger.paths);
    expect(report.findings).toEqual([expect.objectContaining({ kind: "blob_hash", file: first.ref })]);
  });

  it("records writes with their artifacts, refusals as failure with the failing stage, and thrown errors", async () => {
    const root = await corpusWorkspace();
    const { projectKey, sessions } = await corpusSessions(root);
    const ctx = createCoreContext(root);
    const s = sessions.find((x) => x.turns.some((t) => t.turn_end_line - t.turn_start_line >= 2))!;
    const turn = s.turns.find((t) => t.turn_end_line - t.turn_start_line >= 2)!;
    const chain = chainForTurn(turn);
    const write = await callTool(ctx, "write_evidence", { project_key: projectKey, session_ref: s.ref, evidence_chain: chain }, { door: "mcp", client: "test-agent" });
    expect(write.status).toBe("appended");
    const badSchema = await callTool(ctx, "read_session_lines", "not an object", { door: "cli" });
    expect(badSchema.status).toBe("invalid");
    await expect(callTool(ctx, "get_evidence_card", { project_key: "nope", session_ref: "S0001" }, { door: "ui" })).rejects.toThrow();
    const index = await getLedger(root).read();
    const finishes = index.entries.filter((e) => e.entry.kind === "tool_call_finished").map((e) => e.entry);
    const [w, bad, thrown] = finishes as Extract<(typeof finishes)[number], { kind: "tool_call_finished" }>[];
    if (write.status === "appended") {
      expect(w).toMatchObject({ result: "success", artifacts_written: [`projects/${projectKey}/evidence/${s.ref}.json`] });
      expect(w!.policy_decisions.map((d) => d.policy_id)).toEqual(expect.arrayContaining(["workspace.writable", "tool.validation", "path.containment"]));
      expect(await chainAuthors(getLedger(root), projectKey, s.ref)).toEqual({ [turn.turn_ref]: expect.objectContaining({ door: "mcp", client: "test-agent", tool_name: "write_evidence" }) });
    } else {
      expect(w).toMatchObject({ result: "failure", status: "invalid", artifacts_written: [] });
    }
    expect(index.receipts.get(w!.receipt_id)!.started).toMatchObject({ door: "mcp", client: "test-agent", task_id: `${projectKey}/${s.ref}` });
    expect(bad).toMatchObject({ result: "failure", status: "invalid" });
    expect(bad!.policy_decisions).toContainEqual(expect.objectContaining({ policy_id: "input.schema", decision: "deny" }));
    expect(thrown).toMatchObject({ result: "failure", status: "not_found", error: expect.objectContaining({ code: "not_found" }) });
  });

  it("rotates at a 64 KiB threshold into numbered segments; reads are identical before and after, and incremental reads never read a byte twice", async () => {
    const root = await corpusWorkspace();
    const { projectKey, sessions } = await corpusSessions(root);
    const ledger = configureLedger(root, { segmentBytes: 64 * 1024 });
    const ctx = createCoreContext(root);
    const live = new LedgerIndex(ledger.paths);
    const call = (i: number) => callTool(ctx, "read_session_lines", { project_key: projectKey, session_ref: sessions[i % sessions.length]!.ref, start_line: 1, end_line: 1 + (i % 5) }, { door: "cli" });
    for (let i = 0; i < 20; i += 1) await call(i);
    await live.refresh();
    const before = live.entries.map((e) => e.entry);
    expect(await listSegments(ledger.paths)).toEqual([]);
    let i = 20;
    while ((await listSegments(ledger.paths)).length < 2) {
      await call(i);
      i += 1;
      if (i % 25 === 0) await live.refresh(); // refresh across rotations, not only at the end
    }
    await live.refresh();
    const segments = await listSegments(ledger.paths);
    expect(segments).toEqual(segments.map((_, k) => k + 1));
    for (const n of segments) expect((await fs.stat(path.join(ledger.paths.tracesDir, `tool-traces.${String(n).padStart(8, "0")}.jsonl`))).size).toBeGreaterThanOrEqual(64 * 1024);
    const fresh = new LedgerIndex(ledger.paths);
    await fresh.refresh();
    expect(fresh.entries.map((e) => e.entry)).toEqual(live.entries.map((e) => e.entry));
    expect(fresh.entries.slice(0, before.length).map((e) => e.entry)).toEqual(before);
    expect(live.entries).toHaveLength(i * 2);
    expect(live.problems).toEqual([]);
    expect(live.bytesRead).toBe(await fileBytes(ledger));
    // Appends after the first read are seen, and only their bytes are read.
    const size = await fileBytes(ledger);
    await call(i);
    await live.refresh();
    expect(live.entries).toHaveLength(i * 2 + 2);
    expect(live.bytesRead).toBe(await fileBytes(ledger));
    expect(live.bytesRead - size).toBeLessThan(4096);
    expect((await verifyLedger(ledger.paths)).ok).toBe(true);
  });

  it("reconciles an orphaned started entry of a dead process with a synthetic crashed finish, and leaves a live caller's alone", async () => {
    const root = await corpusWorkspace();
    const ledger = new Ledger(root);
    const blob = await persistBlob(ledger.paths, { project_key: "p", session_ref: "S0001" });
    const dead = started({ pid: deadPid(), process_id: "gone", input_hash: blob.hash, input_ref: blob.ref });
    const live = started({ input_hash: blob.hash, input_ref: blob.ref });
    await ledger.append([dead, live]);
    expect((await verifyLedger(ledger.paths)).findings).toEqual([expect.objectContaining({ kind: "orphan", receipt_id: dead.receipt_id })]);
    expect(await reconcileOrphans(ledger)).toEqual([dead.receipt_id]);
    expect(await reconcileOrphans(ledger)).toEqual([]);
    const index = await ledger.read();
    expect(index.receipts.get(dead.receipt_id)!.finished).toMatchObject({
      result: "crashed",
      duration_ms: 0,
      artifacts_written: [],
      policy_decisions: [{ policy_id: "kernel.reconciliation", decision: "deny", reason: "Orphaned started trace without matching finished trace" }],
    });
    expect(index.receipts.get(live.receipt_id)!.finished).toBeUndefined();
    const report = await verifyLedger(ledger.paths);
    expect(report).toMatchObject({ ok: true, in_flight: 1 });
  });

  it("tolerates and reports a torn last line, and keeps the next entry whole", async () => {
    const root = await corpusWorkspace();
    const ledger = new Ledger(root);
    const a = started({});
    await ledger.append([a]);
    await fs.appendFile(ledger.paths.active, '{"schema_version":1,"kind":"tool_call_fin');
    const index = await ledger.read();
    expect(index.entries).toHaveLength(1);
    expect(index.tornTail).toMatchObject({ file: "tool-traces.jsonl", bytes: 41 });
    expect((await verifyLedger(ledger.paths)).findings).toContainEqual(expect.objectContaining({ kind: "torn_line" }));
    const b = started({});
    await ledger.append([b]);
    await ledger.read();
    expect(index.entries.map((e) => e.entry.receipt_id)).toEqual([a.receipt_id, b.receipt_id]);
    expect(index.tornTail).toBeNull();
    expect(index.problems).toEqual([expect.objectContaining({ kind: "malformed", file: "tool-traces.jsonl", line: 2 })]);
    const report = await verifyLedger(ledger.paths);
    expect(report.ok).toBe(false);
    expect(report.findings).toContainEqual(expect.objectContaining({ kind: "malformed", line: 2 }));
  });

  it("is not blocked by a lock left by a writer killed while holding it", async () => {
    const root = await corpusWorkspace();
    const ledger = new Ledger(root);
    await fs.mkdir(ledger.paths.tracesDir, { recursive: true });
    await fs.writeFile(`${ledger.paths.active}.lock`, JSON.stringify({ pid: deadPid(), host: os.hostname(), token: "dead" }));
    // The lock's mtime is old too, as after a long crash.
    const old = new Date(Date.now() - 60_000);
    await fs.utimes(`${ledger.paths.active}.lock`, old, old);
    await ledger.append([started({})]);
    expect((await ledger.read()).entries).toHaveLength(1);
    await expect(fs.stat(`${ledger.paths.active}.lock`)).rejects.toThrow();
  });

  it("query_ledger_full filters and pages through every door's calls; an unknown ledger is invalid naming the field", async () => {
    const root = await corpusWorkspace();
    const { projectKey, sessions } = await corpusSessions(root);
    const ctx = createCoreContext(root);
    for (const [k, door] of (["cli", "http", "mcp"] as const).entries()) {
      await callTool(ctx, "read_session_lines", { project_key: projectKey, session_ref: sessions[k % sessions.length]!.ref, start_line: 1, end_line: 2 }, { door });
    }
    const page1 = await callTool(ctx, "query_ledger_full", { event_type: "tool_call_started", tool_name: "read_session_lines", max_entries: 2 }, { door: "cli" });
    expect(page1).toMatchObject({ status: "ok", ledger: "audit", total: 3, offset: 0, next_offset: 2 });
    const page2 = await callTool(ctx, "query_ledger_full", { event_type: "tool_call_started", tool_name: "read_session_lines", max_entries: 2, offset: 2 }, { door: "cli" });
    expect(page2).toMatchObject({ total: 3, next_offset: null, entries: [expect.objectContaining({ door: "mcp", outcome: expect.objectContaining({ result: "success" }) })] });
    const finished = await callTool(ctx, "query_ledger_full", { event_type: "tool_call_finished", task_id: `${projectKey}/${sessions[0]!.ref}`, tool_name: "read_session_lines" }, { door: "cli" });
    expect((finished.entries as { call: { task_id: string } }[]).every((e) => e.call.task_id === `${projectKey}/${sessions[0]!.ref}`)).toBe(true);
    expect(await callTool(ctx, "query_ledger_full", { ledger: "transcripts" }, { door: "cli" })).toMatchObject({ status: "invalid", errors: [expect.objectContaining({ field: "ledger" })] });
    expect(await callTool(ctx, "query_ledger_full", { event_type: "nope" }, { door: "cli" })).toMatchObject({ status: "invalid", errors: [expect.objectContaining({ field: "event_type" })] });
    const receiptId = (page1.entries as { receipt_id: string }[])[0]!.receipt_id;
    const inspected = await callTool(ctx, "inspect_ledger_task", { receipt_id: receiptId }, { door: "cli" });
    expect(inspected).toMatchObject({ status: "ok", receipts: [expect.objectContaining({ receipt_id: receiptId, input: expect.objectContaining({ state: "present", verified: true }), output: expect.objectContaining({ verified: true }) })] });
    const task = await callTool(ctx, "inspect_ledger_task", { task_id: `${projectKey}/${sessions[0]!.ref}` }, { door: "cli" });
    expect((task.receipts as unknown[]).length).toBeGreaterThanOrEqual(1);
  });
});
