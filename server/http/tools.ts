import "server-only";

import { AppError } from "@/lib/errors";
import { localRequestDecisions } from "@/lib/security/local-request";
import { HTTP_BODY_LIMIT_BYTES, readLimited } from "@/lib/security/request-limits";
import { callTool, isToolSuccess, serializeToolResult } from "@/lib/tools/registry";
import { getCoreContext } from "@/server/core";
import { errorResponse, jsonText } from "@/server/http/respond";

/*
 * The largest tool input body is HTTP_BODY_LIMIT_BYTES (10 MiB). Next buffers a body for proxy.ts
 * up to `proxyClientMaxBodySize` (next.config.mjs: 64 MiB) and silently drops the rest, the chunk
 * that crossed it included; that is set well above this limit so a cut body is still over it,
 * and a chunked body (no Content-Length) is counted here as it streams (issue 26 probe: 11 and
 * 60 MB chunked bodies answered "not valid JSON").
 */
export { HTTP_BODY_LIMIT_BYTES };

/**
 * `POST /api/tools/<tool_name>`: the JSON body is the tool input; 200 with the result on
 * success, 400 with the same body when the status is `invalid` (issue 2, "Doors"). A body over
 * the limit answers 413 naming it. The Host and Origin
 * decisions (already enforced by proxy.ts) are recorded with the call in the audit ledger.
 */
export async function callToolHandler(request: Request, { params }: { params: Promise<{ tool: string }> }): Promise<Response> {
  try {
    const { tool } = await params;
    const declared = Number(request.headers.get("content-length") ?? NaN);
    if (declared >= HTTP_BODY_LIMIT_BYTES) return tooLarge(declared);
    const body = await readLimited(request, HTTP_BODY_LIMIT_BYTES);
    if (body === null) return tooLarge(null);
    let input: unknown;
    try {
      input = JSON.parse(new TextDecoder().decode(body));
    } catch {
      throw new AppError("invalid_input", "request body is not valid JSON", { hint: "send the tool input as a JSON object" });
    }
    const decisions = localRequestDecisions(request.method, request.headers.get("host") ?? new URL(request.url).host, request.headers.get("origin"));
    const result = await callTool(getCoreContext(), tool, input, { door: "http", decisions });
    return jsonText(serializeToolResult(result), isToolSuccess(result) ? 200 : 400);
  } catch (error) {
    return errorResponse(error);
  }
}

function tooLarge(bytes: number | null): Response {
  const message = `request body of ${bytes === null ? "at least" : ""}${bytes === null ? ` ${HTTP_BODY_LIMIT_BYTES}` : bytes} bytes is over the ${HTTP_BODY_LIMIT_BYTES / 1024 / 1024} MiB (${HTTP_BODY_LIMIT_BYTES} bytes) limit of POST /api/tools`;
  return Response.json({ error: { code: "invalid_input", message, hint: `send at most ${HTTP_BODY_LIMIT_BYTES - 1} bytes` } }, { status: 413 });
}
