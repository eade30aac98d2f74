import "server-only";

import { readTokenChartTool } from "@/lib/analysis/tools";
import { inputFromQuery } from "@/lib/tools/query-input";
import { invokeToolForUi, isToolSuccess, serializeToolResult } from "@/lib/tools/registry";
import { getCoreContext } from "@/server/core";
import { errorResponse, jsonText } from "@/server/http/respond";

type SessionParams = { params: Promise<{ projectKey: string; sessionRef: string }> };

/** `GET /api/projects/<key>/sessions/<ref>/token-chart?threshold` → `read_token_chart` (door `ui`): the chart's series over HTTP (the Analysis page itself reads the tool on the server). */
export async function tokenChartHandler(request: Request, { params }: SessionParams): Promise<Response> {
  try {
    const { projectKey, sessionRef } = await params;
    const query = inputFromQuery(readTokenChartTool.input, Object.fromEntries(new URL(request.url).searchParams));
    const result = await invokeToolForUi(getCoreContext(), readTokenChartTool, { ...query, project_key: projectKey, session_ref: sessionRef });
    return jsonText(serializeToolResult(result), isToolSuccess(result) ? 200 : 400);
  } catch (error) {
    return errorResponse(error);
  }
}
