import "server-only";

import { readViewerLinesTool } from "@/lib/session-reader/tools";
import { inputFromQuery } from "@/lib/tools/query-input";
import { invokeToolForUi, isToolSuccess, serializeToolResult } from "@/lib/tools/registry";
import { listSessionTurnsTool } from "@/lib/workspace/tools";
import { listSessionsTool } from "@/lib/catalog/tools";
import { getCoreContext } from "@/server/core";
import { errorResponse, jsonText } from "@/server/http/respond";

type ProjectParams = { params: Promise<{ projectKey: string }> };
type SessionParams = { params: Promise<{ projectKey: string; sessionRef: string }> };

/** `GET /api/projects/<key>/sessions?limit&offset&sort&order&q` → the `list_sessions` tool (door `ui`). */
export async function listSessionsHandler(request: Request, { params }: ProjectParams): Promise<Response> {
  try {
    const { projectKey } = await params;
    const query = inputFromQuery(listSessionsTool.input, Object.fromEntries(new URL(request.url).searchParams));
    const result = await invokeToolForUi(getCoreContext(), listSessionsTool, { ...query, project_key: projectKey });
    return jsonText(serializeToolResult(result), isToolSuccess(result) ? 200 : 400);
  } catch (error) {
    return errorResponse(error);
  }
}

/** `GET /api/projects/<key>/sessions/<ref>/lines?start&end&mode[&agent]` → the `read_viewer_lines` tool (door `ui`). */
export async function sessionLinesHandler(request: Request, { params }: SessionParams): Promise<Response> {
  try {
    const { projectKey, sessionRef } = await params;
    const { start, end, mode, agent } = Object.fromEntries(new URL(request.url).searchParams);
    const input = inputFromQuery(readViewerLinesTool.input, { project_key: projectKey, session_ref: sessionRef, start_line: start, end_line: end, mode, agent_id: agent });
    return Response.json(await invokeToolForUi(getCoreContext(), readViewerLinesTool, input));
  } catch (error) {
    return errorResponse(error);
  }
}

/** `GET /api/projects/<key>/sessions/<ref>/turns?offset|line&to_line&limit&usage` → the `list_session_turns` tool (door `ui`). */
export async function sessionTurnsHandler(request: Request, { params }: SessionParams): Promise<Response> {
  try {
    const { projectKey, sessionRef } = await params;
    const query = inputFromQuery(listSessionTurnsTool.input, Object.fromEntries(new URL(request.url).searchParams));
    return Response.json(await invokeToolForUi(getCoreContext(), listSessionTurnsTool, { ...query, project_key: projectKey, session_ref: sessionRef }));
  } catch (error) {
    return errorResponse(error);
  }
}
