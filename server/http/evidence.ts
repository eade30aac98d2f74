import "server-only";

import { getEvidenceCardTool } from "@/lib/evidence/tools";
import { invokeToolForUi } from "@/lib/tools/registry";
import { getCoreContext } from "@/server/core";
import { errorResponse } from "@/server/http/respond";

type SessionParams = { params: Promise<{ projectKey: string; sessionRef: string }> };

/** `GET /api/projects/<key>/sessions/<ref>/evidence`: the card view the evidence panel polls. */
export async function getEvidenceCardHandler(_request: Request, { params }: SessionParams): Promise<Response> {
  try {
    const { projectKey, sessionRef } = await params;
    return Response.json(await invokeToolForUi(getCoreContext(), getEvidenceCardTool, { project_key: projectKey, session_ref: sessionRef }), { headers: { "cache-control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
