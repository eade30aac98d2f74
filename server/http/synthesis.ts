import "server-only";

import { createHash } from "node:crypto";

import type { SynthesisState } from "@/lib/synthesis/schema";
import { getSynthesisState } from "@/lib/synthesis/synthesis-state";
import { getCoreContext } from "@/server/core";
import { errorResponse } from "@/server/http/respond";

type ProjectParams = { params: Promise<{ projectKey: string }> };

/*
 * The synthesis page polls this every second. getSynthesisState returns the same object while
 * nothing on disk changed (it is stat-cached), so the body and its ETag are computed once per
 * change and a poll that sends the current ETag gets an empty 304. The ETag hashes the whole
 * body: the state's `version` covers the envelope only, not the evidence cards behind has_chain.
 */
const encoded = new WeakMap<SynthesisState, { body: string; etag: string }>();

function encode(state: SynthesisState): { body: string; etag: string } {
  let entry = encoded.get(state);
  if (!entry) {
    const body = JSON.stringify(state);
    entry = { body, etag: `"${createHash("sha256").update(body).digest("base64url")}"` };
    encoded.set(state, entry);
  }
  return entry;
}

/** `GET /api/projects/<key>/synthesis` → getSynthesisState as JSON, 304 when `If-None-Match` is current. */
export async function getSynthesisStateHandler(request: Request, { params }: ProjectParams): Promise<Response> {
  try {
    const { projectKey } = await params;
    const { body, etag } = encode(await getSynthesisState(getCoreContext(), projectKey));
    const headers = { etag, "cache-control": "no-cache" };
    if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
    return new Response(body, { status: 200, headers: { ...headers, "content-type": "application/json; charset=utf-8" } });
  } catch (error) {
    return errorResponse(error);
  }
}
