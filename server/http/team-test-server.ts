/**
 * A team server for tests and benches, in process: the dashboard server's Node front
 * (server/serve/dashboard-server) over the push handlers (server/http/team-push), without Next.
 * Authentication is the caller's `authenticate` (a bearer token to its actor), whose actor is
 * passed on in the header the dashboard server sets, as in team mode.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

import { createDashboardServer } from "@/server/serve/dashboard-server";
import { pushFileResponse, pushManifestResponse } from "@/server/http/team-push";
import { TEAM_ACTOR_HEADER, type PushActor } from "@/server/http/team-actor";

export type TeamTestServer = { url: string; close(): Promise<void> };

export type TeamTestServerOptions = {
  /** The actor of a bearer token, or null (the request is then answered 401 by the handler). */
  authenticate: (bearer: string | null) => Promise<PushActor | null> | PushActor | null;
  /** Called with each file request before it is handled (tests kill a pushing process there). */
  onFileRequest?: (url: string) => Promise<void> | void;
};

/** Starts the server on a free loopback port over the workspace `workspaceRoot`. */
export async function startTeamTestServer(workspaceRoot: string, options: TeamTestServerOptions): Promise<TeamTestServer> {
  const server = createDashboardServer(async (req, res) => {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? null;
    const actor = await options.authenticate(bearer);
    const request = toRequest(req, actor);
    const route = new URL(request.url).pathname;
    let response: Response;
    if (route === "/api/team/push/manifest" && req.method === "POST") response = await pushManifestResponse(request, workspaceRoot);
    else if (route === "/api/team/push/file" && req.method === "PUT") {
      await options.onFileRequest?.(request.url);
      response = await pushFileResponse(request, workspaceRoot);
    } else response = Response.json({ error: { code: "not_found", message: `no route ${req.method} ${route}` } }, { status: 404 });
    await send(res, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function toRequest(req: IncomingMessage, actor: PushActor | null): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (key === TEAM_ACTOR_HEADER || value === undefined) continue;
    headers.set(key, Array.isArray(value) ? value.join(", ") : value);
  }
  if (actor) headers.set(TEAM_ACTOR_HEADER, JSON.stringify(actor));
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : (Readable.toWeb(req) as ReadableStream<Uint8Array>);
  return new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body, duplex: "half" } as RequestInit);
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, { "content-type": response.headers.get("content-type") ?? "application/json", "content-length": body.byteLength });
  res.end(body);
}
