import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import os from "node:os";

import { describe, expect, it } from "vitest";

import { register } from "@/instrumentation";
import { corpusWorkspace } from "@/lib/ledger/__fixtures__/corpus-workspace";
import { persistBlob } from "@/lib/ledger/blobs";
import { LedgerIndex } from "@/lib/ledger/ledger-index";
import { Ledger } from "@/lib/ledger/ledger-store";
import { HAS_SHARED, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

/*
 * The dashboard's start is a door of the audit ledger (seed 002, issue 8): Next's `register`
 * reconciles the orphans a crashed process left, before any tool call is made. Own file: the
 * reconciliation runs once per process and ledger.
 */
describe.skipIf(!HAS_SHARED)(`dashboard start-up${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("finishes a dead process's open call as crashed when the server starts", { timeout: 120_000 }, async () => {
    const root = await corpusWorkspace();
    const ledger = new Ledger(root);
    const blob = await persistBlob(ledger.paths, { project_key: "p" });
    const deadPid = Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString());
    const receipt = randomUUID();
    await ledger.append([
      {
        schema_version: 1,
        kind: "tool_call_started",
        receipt_id: receipt,
        task_id: "p",
        tool_name: "write_work_item",
        door: "mcp",
        timestamp: new Date().toISOString(),
        input_hash: blob.hash,
        input_ref: blob.ref,
        scope_enforced: [],
        pid: deadPid,
        host: os.hostname(),
        process_id: "a-crashed-process",
      },
    ]);
    Object.assign(process.env, { NEXT_RUNTIME: "nodejs", CASEFILE_WATCH: "0", CASEFILE_WORKSPACE: root });
    await register();
    // register does not wait for it: watch the ledger until the synthetic finish lands.
    const index = new LedgerIndex(ledger.paths);
    for (const deadline = Date.now() + 60_000; !index.receipts.get(receipt)?.finished; await new Promise((r) => setTimeout(r, 5))) {
      if (Date.now() > deadline) throw new Error("the orphan was not reconciled within 60 s of start-up");
      await index.refresh();
    }
    expect(index.receipts.get(receipt)!.finished).toMatchObject({ result: "crashed", duration_ms: 0, policy_decisions: [{ policy_id: "kernel.reconciliation", decision: "deny" }] });
  });
});
