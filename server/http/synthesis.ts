import "server-only";

import { createHash } from "node:crypto";

import { getSynthesisStateTool } from "@/lib/synthesis/tools";
import { invokeToolForUi } from "@/lib/tools/registry";
import { getCoreContext } from "@/server/core";
import { errorResponse } from "@/server/http/respond";

type ProjectParams = { params: Promise<{ projectKey: string }> };

/*
 * The synthesis page polls this. The `get_synthesis_state` tool returns the same object while
 * nothing on disk changed (getSynthesisState is stat-cached), so the body (the state without the
 * tool's status) and its ETag are computed once per change and a poll that sends the current
 * ETag gets an empty 304. The ETag hashes the whole
 * body: the state's `version` covers the envelope only, not the evidence cards behind has_chain.
 */
type StateResult = Awaited<ReturnType<typeof getSynthesisStateTool.run>>;

const encoded = new WeakMap<StateResult, { body: string; etag: string }>();

function encode(result: StateResult): { body: string; etag: string } {
  let entry = encoded.get(result);
  if (!entry) {
    const { status: _status, ...state } = result;
    const body = JSON.stringify(state);
    entry = { body, etag: `"${createHash("sha256").update(body).digest("base64url")}"` };
    encoded.set(result, entry);
  }
  return entry;
}

/** `GET /api/projects/<key>/synthesis` → the synthesis state (`get_synthesis_state`, door `ui`) as JSON, 304 when `If-None-Match` is current. */
export async function getSynthesisStateHandler(request: Request, { params }: ProjectParams): Promise<Response> {
  try {
    const { projectKey } = await params;
    const { body, etag } = encode(await invokeToolForUi(getCoreContext(), getSynthesisStateTool, { project_key: projectKey }));
    const headers = { etag, "cache-control": "no-cache" };
    if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
    return new Response(body, { status: 200, headers: { ...headers, "content-type": "application/json; charset=utf-8" } });
  } catch (error) {
    return errorResponse(error);
  }
}
