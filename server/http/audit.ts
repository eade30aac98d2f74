import "server-only";

import { AppError } from "@/lib/errors";
import { getChainAuthorsTool, inspectLedgerTaskTool, queryLedgerFullTool } from "@/lib/ledger/tools";
import { inputFromQuery } from "@/lib/tools/query-input";
import { invokeToolForUi, serializeToolResult } from "@/lib/tools/registry";
import { getCoreContext } from "@/server/core";
import { errorResponse, jsonText } from "@/server/http/respond";

const FILTERS = ["door", "tool_name", "result", "task_id", "offset", "max_entries"] as const;

/**
 * `GET /api/audit?door&tool_name&result&task_id&offset&max_entries` → `query_ledger_full` (door
 * `ui`): the calls (started entries, each with its outcome), newest first, for the Audit page.
 */
export async function listAuditCallsHandler(request: Request): Promise<Response> {
  try {
    const search = new URL(request.url).searchParams;
    const query: Record<string, string> = { ledger: "audit", event_type: "tool_call_started", order: "desc" };
    for (const key of FILTERS) {
      const value = search.get(key);
      if (value) query[key] = value;
    }
    return jsonText(serializeToolResult(await invokeToolForUi(getCoreContext(), queryLedgerFullTool, inputFromQuery(queryLedgerFullTool.input, query))), 200);
  } catch (error) {
    return errorResponse(error);
  }
}

/**
 * `GET /api/audit/<receipt_id>` → `inspect_ledger_task` of one call: entries, input and output
 * from their blobs. A receipt id the ledger does not hold answers 404 `not_found` (issue 35,
 * item 8: any path under /api/audit answered 200 with no receipts).
 */
export async function getAuditCallHandler(_request: Request, { params }: { params: Promise<{ receiptId: string }> }): Promise<Response> {
  try {
    const { receiptId } = await params;
    const result = await invokeToolForUi(getCoreContext(), inspectLedgerTaskTool, { receipt_id: receiptId });
    if (result.receipts.length === 0) throw new AppError("not_found", `no call with receipt id '${receiptId.slice(0, 100)}' in the audit ledger`);
    return jsonText(serializeToolResult(result), 200);
  } catch (error) {
    return errorResponse(error);
  }
}

/** `GET /api/audit/authors?project_key&session_ref` → `get_chain_authors`: each chain's last writer. */
export async function getChainAuthorsHandler(request: Request): Promise<Response> {
  try {
    const search = new URL(request.url).searchParams;
    const input = { project_key: search.get("project_key") ?? "", session_ref: search.get("session_ref") ?? "" };
    return jsonText(serializeToolResult(await invokeToolForUi(getCoreContext(), getChainAuthorsTool, input)), 200);
  } catch (error) {
    return errorResponse(error);
  }
}
