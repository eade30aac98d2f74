import "server-only";

import { getEvidenceCardTool } from "@/lib/evidence/tools";
import { inputFromQuery } from "@/lib/tools/query-input";
import { invokeToolForUi } from "@/lib/tools/registry";
import { getCoreContext } from "@/server/core";
import { errorResponse } from "@/server/http/respond";

type SessionParams = { params: Promise<{ projectKey: string; sessionRef: string }> };

/** `GET /api/projects/<key>/sessions/<ref>/evidence[?turns_offset&turns_limit]`: the card view the evidence panel polls (a page of its turns, issue 13). */
export async function getEvidenceCardHandler(request: Request, { params }: SessionParams): Promise<Response> {
  try {
    const { projectKey, sessionRef } = await params;
    const { turns_offset, turns_limit } = Object.fromEntries(new URL(request.url).searchParams);
    const input = inputFromQuery(getEvidenceCardTool.input, { project_key: projectKey, session_ref: sessionRef, turns_offset, turns_limit });
    return Response.json(await invokeToolForUi(getCoreContext(), getEvidenceCardTool, input), { headers: { "cache-control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
