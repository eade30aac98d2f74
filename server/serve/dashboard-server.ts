/**
 * The dashboard's HTTP server: Node's http.Server in front of Next's request handler, for what
 * happens below Next (issue 35, item 8). `next start` creates its server with Node's defaults,
 * which it cannot be told to change: a request may take 300 s to arrive, and a request is handed
 * to Next before anything looks at its target, its Host headers or its declared size.
 * Plain Node: no next/*, no server-only (server/serve/start-dashboard.ts hands it Next).
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";

import { SECURITY_HEADERS, STRICT_CONTENT_SECURITY_POLICY } from "@/lib/security/content-security-policy";
import { HTTP_BODY_LIMIT_BYTES } from "@/lib/security/request-limits";

/** The longest a whole request (headers and body) may take to arrive: a tool input is at most 10 MiB, over loopback. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** The longest a request's headers may take to arrive. */
export const HEADERS_TIMEOUT_MS = 10_000;

/** What handles the requests the server lets through (Next's request handler). */
export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void> | void;

/** Limits of {@link createDashboardServer}; tests shorten them. */
export type DashboardServerOptions = {
  requestTimeoutMs?: number;
  headersTimeoutMs?: number;
  /** How often Node checks the timeouts: a request times out at most this late (Node's default is 30 s). */
  checkIntervalMs?: number;
  bodyLimitBytes?: number;
};

/** Why the server answers a request itself, before the handler sees it. */
type Refusal = { status: 400 | 413; message: string };

/**
 * Why a request is refused before Next sees it, or null when it may pass:
 * - a target that is not a path (absolute-form `http://evil.com/…`, which Next redirected to
 *   that host with 308; authority-form; `*`), or a path starting `//` (read as a host by URL
 *   parsers): 400;
 * - no Host header, or more than one (Node keeps the first of two, so `Host: ours` then
 *   `Host: evil.com` passed the Host check; RFC 9112 §3.2 requires 400): 400;
 * - a declared Content-Length of `bodyLimitBytes` or more: 413 at once (Next waited for a
 *   body that never came: 30 s for `Content-Length: 1000000000000` with 10 bytes).
 */
export function requestRefusal(request: IncomingMessage, bodyLimitBytes = HTTP_BODY_LIMIT_BYTES): Refusal | null {
  const target = request.url ?? "";
  if (!target.startsWith("/") || target.startsWith("//")) return { status: 400, message: "the request target must be a path on this server (origin-form)" };
  let hosts = 0;
  for (let i = 0; i < request.rawHeaders.length; i += 2) if (request.rawHeaders[i]!.toLowerCase() === "host") hosts++;
  if (hosts !== 1) return { status: 400, message: hosts === 0 ? "no Host header" : `${hosts} Host headers: exactly one is allowed` };
  const declared = Number(request.headers["content-length"] ?? 0);
  if (declared >= bodyLimitBytes) {
    return { status: 413, message: `request body of ${declared} bytes is over the ${bodyLimitBytes} bytes limit` };
  }
  return null;
}

/** A JSON error body with the headers every response carries (next.config.mjs gives Next's own). */
function errorHead(status: number, body: string): Record<string, string | number> {
  return {
    ...SECURITY_HEADERS,
    "content-security-policy": STRICT_CONTENT_SECURITY_POLICY,
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    connection: "close",
  };
}

const errorBody = (message: string): string => JSON.stringify({ error: { code: "invalid_input", message } });

/** Node's reason phrases for the statuses written straight to a socket. */
const SOCKET_STATUS: Record<string, { status: number; text: string; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, text: "Request Timeout", message: "the request did not arrive in time" },
  HPE_HEADER_OVERFLOW: { status: 431, text: "Request Header Fields Too Large", message: "the request's headers are too large" },
};

/**
 * An http.Server that answers {@link requestRefusal}'s requests itself (closing the connection,
 * the body unread) and hands the others to `handler`. A request must arrive whole within
 * `requestTimeoutMs` (default {@link REQUEST_TIMEOUT_MS}), its headers within `headersTimeoutMs`
 * ({@link HEADERS_TIMEOUT_MS}), else it is answered 408 and its connection closed; malformed
 * requests get 400. Every answer of its own carries the security headers and the strict CSP.
 */
export function createDashboardServer(handler: RequestHandler, options: DashboardServerOptions = {}): http.Server {
  const bodyLimit = options.bodyLimitBytes ?? HTTP_BODY_LIMIT_BYTES;
  // The response in flight on each connection, until its request has fully arrived: a timeout
  // may write its 408 only where no response has begun (Node's own rule for its 408).
  const inFlight = new WeakMap<Duplex, ServerResponse>();
  const server = http.createServer(
    {
      requestTimeout: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
      headersTimeout: options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: options.checkIntervalMs ?? 1_000,
    },
    (request, response) => {
      const refusal = requestRefusal(request, bodyLimit);
      if (refusal) {
        const body = errorBody(refusal.message);
        response.writeHead(refusal.status, errorHead(refusal.status, body)).end(body);
        return;
      }
      inFlight.set(request.socket, response);
      response.once("finish", () => {
        if (request.complete && inFlight.get(request.socket) === response) inFlight.delete(request.socket);
      });
      Promise.resolve()
        .then(() => handler(request, response))
        .catch((error: unknown) => {
          console.error(`[server] failed to handle ${request.method} ${request.url}`, error);
          if (response.headersSent) return void response.destroy();
          const body = JSON.stringify({ error: { code: "internal", message: "Something went wrong — see the server log." } });
          response.writeHead(500, errorHead(500, body)).end(body);
        });
    },
  );
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    const known = SOCKET_STATUS[error.code ?? ""] ?? { status: 400, text: "Bad Request", message: "malformed request" };
    const started = inFlight.get(socket)?.headersSent ?? false;
    if (error.code !== "ECONNRESET" && socket.writable && !started) {
      const body = errorBody(known.message);
      const head = Object.entries(errorHead(known.status, body)).map(([key, value]) => `${key}: ${value}\r\n`).join("");
      socket.write(`HTTP/1.1 ${known.status} ${known.text}\r\n${head}\r\n${body}`);
    }
    socket.destroy();
  });
  return server;
}
