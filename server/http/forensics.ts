import "server-only";

import { grepJsonlTool } from "@/lib/forensics/tools";
import { inputFromQuery } from "@/lib/tools/query-input";
import { reconstructSessionTool } from "@/lib/tools/session-forensics";
import { invokeToolForUi, isToolSuccess, serializeToolResult } from "@/lib/tools/registry";
import { getCoreContext } from "@/server/core";
import { errorResponse, jsonText } from "@/server/http/respond";

type ProjectParams = { params: Promise<{ projectKey: string }> };
type SessionParams = { params: Promise<{ projectKey: string; sessionRef: string }> };

/** `GET /api/projects/<key>/sessions/<ref>/timeline?offset&limit&verbosity&source&event_type` → `reconstruct_session` (door `ui`). */
export async function sessionTimelineHandler(request: Request, { params }: SessionParams): Promise<Response> {
  try {
    const { projectKey, sessionRef } = await params;
    const query = inputFromQuery(reconstructSessionTool.input, Object.fromEntries(new URL(request.url).searchParams));
    const result = await invokeToolForUi(getCoreContext(), reconstructSessionTool, { max_bytes: 4_000_000, ...query, project_key: projectKey, session_ref: sessionRef });
    return jsonText(serializeToolResult(result), isToolSuccess(result) ? 200 : 400);
  } catch (error) {
    return errorResponse(error);
  }
}

/** `GET /api/projects/<key>/search?pattern&session_ref&ledger&limit&offset` → `grep_jsonl` (door `ui`). */
export async function projectSearchHandler(request: Request, { params }: ProjectParams): Promise<Response> {
  try {
    const { projectKey } = await params;
    const query = inputFromQuery(grepJsonlTool.input, Object.fromEntries(new URL(request.url).searchParams));
    const result = await invokeToolForUi(getCoreContext(), grepJsonlTool, { max_bytes: 2_000_000, ...query, project_key: projectKey });
    return jsonText(serializeToolResult(result), isToolSuccess(result) ? 200 : 400);
  } catch (error) {
    return errorResponse(error);
  }
}
