import "server-only";

import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";

import { localRequestDecisions } from "@/lib/security/local-request";
import { HTTP_BODY_LIMIT_BYTES } from "@/lib/security/request-limits";
import { getCoreContext } from "@/server/core";
import { createMcpServer } from "@/server/mcp/server";

/**
 * `POST /api/mcp`: the MCP server over Streamable HTTP (issue 39: a team server's agents reach the
 * same tools by URL; a local dashboard serves it too). Stateless: each request gets its own server
 * and transport, answered as JSON (no SSE stream; `GET` and `DELETE` are 405, as the transport spec
 * allows a server that offers none). Tool calls go through the registry as on stdio, recorded with
 * the door's Host and Origin decisions and, on a team server, the token's actor (lib/context). A
 * body of {@link HTTP_BODY_LIMIT_BYTES} or more is refused with 413 by the transport.
 */
export async function mcpHandler(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const decisions = [
    ...localRequestDecisions(request.method, request.headers.get("host") ?? url.host, request.headers.get("origin")),
    { rule: "door.mcp", decision: "allow" as const, detail: "MCP client over Streamable HTTP" },
  ];
  const server = createMcpServer(getCoreContext(), { decisions });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: HTTP_BODY_LIMIT_BYTES - 1 });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}

/** `GET` and `DELETE /api/mcp`: no SSE stream and no sessions to end on this stateless server. */
export function mcpNotAllowed(): Response {
  return Response.json({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this MCP server is stateless; POST JSON-RPC messages" }, id: null }, { status: 405, headers: { allow: "POST" } });
}
