import "server-only";

import * as z from "zod";

import { invalidInput } from "@/lib/errors";
import { readViewerLines } from "@/lib/session-reader/viewer-lines";
import { READ_MODES } from "@/lib/session-reader/schema";
import { callTool, isToolSuccess, serializeToolResult } from "@/lib/tools/registry";
import { getCoreContext } from "@/server/core";
import { errorResponse, jsonText } from "@/server/http/respond";

type ProjectParams = { params: Promise<{ projectKey: string }> };
type SessionParams = { params: Promise<{ projectKey: string; sessionRef: string }> };

/** `GET /api/projects/<key>/sessions?limit&offset&sort&order&q` → the `list_sessions` tool. */
export async function listSessionsHandler(request: Request, { params }: ProjectParams): Promise<Response> {
  try {
    const { projectKey } = await params;
    const query = Object.fromEntries(new URL(request.url).searchParams);
    const result = await callTool(getCoreContext(), "list_sessions", { ...query, project_key: projectKey });
    return jsonText(serializeToolResult(result), isToolSuccess(result) ? 200 : 400);
  } catch (error) {
    return errorResponse(error);
  }
}

const linesQuerySchema = z.object({
  start: z.coerce.number().int(),
  end: z.coerce.number().int(),
  mode: z.enum(READ_MODES).default("compact"),
  agent: z.string().min(1).optional(),
});

/** `GET /api/projects/<key>/sessions/<ref>/lines?start&end&mode[&agent]` → one viewer window. */
export async function sessionLinesHandler(request: Request, { params }: SessionParams): Promise<Response> {
  try {
    const { projectKey, sessionRef } = await params;
    const parsed = linesQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!parsed.success) throw invalidInput(parsed.error, "start and end must be integers; mode compact or full");
    const { start, end, mode, agent } = parsed.data;
    return Response.json(await readViewerLines(getCoreContext(), { projectKey, sessionRef, start, end, mode, agent }));
  } catch (error) {
    return errorResponse(error);
  }
}
