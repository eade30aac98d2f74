import "server-only";

import { getEvidenceCard } from "@/lib/evidence/get-evidence-card";
import { getCoreContext } from "@/server/core";
import { errorResponse } from "@/server/http/respond";

type SessionParams = { params: Promise<{ projectKey: string; sessionRef: string }> };

/** `GET /api/projects/<key>/sessions/<ref>/evidence`: the card view the evidence panel polls. */
export async function getEvidenceCardHandler(_request: Request, { params }: SessionParams): Promise<Response> {
  try {
    const { projectKey, sessionRef } = await params;
    return Response.json(await getEvidenceCard(getCoreContext(), projectKey, sessionRef), { headers: { "cache-control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
