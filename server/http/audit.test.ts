import { beforeAll, describe, expect, it } from "vitest";

import { getLedger } from "@/lib/ledger/ledger-store";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";
import { getAuditCallHandler } from "@/server/http/audit";
import { callToolHandler } from "@/server/http/tools";

let root = "";
beforeAll(async () => {
  root = await buildTestWorkspace([{ ref: "S0001", content: userLines(3) }]);
  process.env.CASEFILE_WORKSPACE = root;
});

const getCall = (receiptId: string) => getAuditCallHandler(new Request(`http://127.0.0.1:3000/api/audit/${encodeURIComponent(receiptId)}`), { params: Promise.resolve({ receiptId }) });

describe("GET /api/audit/<receipt_id>", () => {
  it("answers a recorded call with its receipt, and 404 not_found for a receipt id the ledger does not hold (issue 35, item 8)", async () => {
    const input = { project_key: TEST_PROJECT_KEY, session_ref: "S0001", start_line: 1, end_line: 1 };
    const called = await callToolHandler(new Request("http://127.0.0.1:3000/api/tools/read_session_lines", { method: "POST", body: JSON.stringify(input) }), { params: Promise.resolve({ tool: "read_session_lines" }) });
    expect(called.status).toBe(200);
    const started = (await getLedger(root).read()).entries.map((e) => e.entry).find((e) => e.kind === "tool_call_started")!;
    const found = await getCall(started.receipt_id);
    expect(found.status).toBe(200);
    expect(((await found.json()) as { receipts: unknown[] }).receipts).toHaveLength(1);

    for (const unknown of ["anything", "00000000-0000-4000-8000-000000000000"]) {
      const missing = await getCall(unknown);
      expect(missing.status, unknown).toBe(404);
      expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("not_found");
    }
  });
});
