/**
 * A team server for tests and benches, in process: the dashboard server in team mode
 * (server/serve/dashboard-server: tokens, roles, the actor header) over the push handlers
 * (server/http/team-push), without Next. `authenticate` is the team mode's token check (lib/team/tokens
 * `authenticateToken` on a real database, or a test's table).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

import type { TeamActor } from "@/lib/team/tokens";
import { pushFileResponse, pushFilesResponse, pushManifestResponse } from "@/server/http/team-push";
import { createDashboardServer } from "@/server/serve/dashboard-server";

export type TeamTestServer = { url: string; close(): Promise<void> };

export type TeamTestServerOptions = {
  /** The actor of a token, or null (the server answers 401). */
  authenticate: (token: string) => Promise<TeamActor | null>;
  /** Called with each file request before it is handled (tests kill a pushing process there). */
  onFileRequest?: (url: string) => Promise<void> | void;
};

/** Starts the server on a free loopback port over the workspace `workspaceRoot`. */
export async function startTeamTestServer(workspaceRoot: string, options: TeamTestServerOptions): Promise<TeamTestServer> {
  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const request = toRequest(req);
    const route = new URL(request.url).pathname;
    let response: Response;
    if (route === "/api/team/push/manifest" && req.method === "POST") response = await pushManifestResponse(request, workspaceRoot);
    else if (route === "/api/team/push/file" && req.method === "PUT") {
      await options.onFileRequest?.(request.url);
      response = await pushFileResponse(request, workspaceRoot);
    } else if (route === "/api/team/push/files" && req.method === "POST") response = await pushFilesResponse(request, workspaceRoot);
    else response = Response.json({ error: { code: "not_found", message: `no route ${req.method} ${route}` } }, { status: 404 });
    await send(res, response);
  };
  const server = createDashboardServer(handler, { team: { authenticate: options.authenticate } });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections a push left open would hold close() until they time out.
        server.closeAllConnections();
      }),
  };
}

/** The web Request of a Node request, its headers (the actor's among them) and body as they came. */
function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(", ") : value);
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : (Readable.toWeb(req) as ReadableStream<Uint8Array>);
  return new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body, duplex: "half" } as RequestInit);
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, { "content-type": response.headers.get("content-type") ?? "application/json", "content-length": body.byteLength });
  res.end(body);
}
