/**
 * The dashboard's HTTP server: Node's http.Server in front of Next's request handler, for what
 * happens below Next (issue 35, item 8). `next start` creates its server with Node's defaults,
 * which it cannot be told to change: a request may take 300 s to arrive, and a request is handed
 * to Next before anything looks at its target, its Host headers or its declared size.
 * Plain Node: no next/*, no server-only (server/serve/start-dashboard.ts hands it Next).
 */
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import https from "node:https";
import type { Duplex } from "node:stream";

import { runAsActor } from "@/lib/context";
import { SECURITY_HEADERS, STRICT_CONTENT_SECURITY_POLICY } from "@/lib/security/content-security-policy";
import { HTTP_BODY_LIMIT_BYTES } from "@/lib/security/request-limits";
import { ACTOR_HEADER, isPublicRequest, LOGIN_PATH, LOGOUT_PATH, requestPath, requestToken, roleRefusal, TOKEN_COOKIE, TOKEN_COOKIE_MAX_AGE_S } from "@/lib/team/auth";
import { loginUrl, RETURN_PARAM, safeReturnPath } from "@/lib/team/return-to";
import type { TeamActor } from "@/lib/team/tokens";

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
  /** Team mode (issue 39): every request needs a token this resolves to an actor (lib/team/tokens' `authenticateToken`). */
  team?: { authenticate(token: string): Promise<TeamActor | null> };
  /** Serve HTTPS with this certificate and key (PEM) instead of HTTP. */
  tls?: { cert: Buffer; key: Buffer };
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

const errorBody = (message: string, code = "invalid_input", hint?: string): string => JSON.stringify({ error: { code, message, ...(hint ? { hint } : {}) } });

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
 * A client's {@link ACTOR_HEADER} is always removed. With `team`, each request is
 * authenticated first ({@link handleTeamRequest}); with `tls`, it serves HTTPS.
 */
export function createDashboardServer(handler: RequestHandler, options: DashboardServerOptions = {}): http.Server | https.Server {
  const bodyLimit = options.bodyLimitBytes ?? HTTP_BODY_LIMIT_BYTES;
  // The response in flight on each connection, until its request has fully arrived: a timeout
  // may write its 408 only where no response has begun (Node's own rule for its 408).
  const inFlight = new WeakMap<Duplex, ServerResponse>();
  const serverOptions = {
    requestTimeout: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    headersTimeout: options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS,
    connectionsCheckingInterval: options.checkIntervalMs ?? 1_000,
  };
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    const refusal = requestRefusal(request, bodyLimit);
    if (refusal) {
      const body = errorBody(refusal.message);
      response.writeHead(refusal.status, errorHead(refusal.status, body)).end(body);
      return;
    }
    // Only this server says who a request is from: a client's own actor header never reaches Next.
    removeHeader(request, ACTOR_HEADER);
    inFlight.set(request.socket, response);
    response.once("finish", () => {
      if (request.complete && inFlight.get(request.socket) === response) inFlight.delete(request.socket);
    });
    const team = options.team;
    Promise.resolve()
      .then(() => (team ? handleTeamRequest(team, request, response, handler, options.tls !== undefined) : handler(request, response)))
      .catch((error: unknown) => {
        console.error(`[server] failed to handle ${request.method} ${request.url}`, error);
        if (response.headersSent) return void response.destroy();
        const body = JSON.stringify({ error: { code: "internal", message: "Something went wrong — see the server log." } });
        response.writeHead(500, errorHead(500, body)).end(body);
      });
  };
  const server = options.tls ? https.createServer({ ...serverOptions, cert: options.tls.cert, key: options.tls.key }, listener) : http.createServer(serverOptions, listener);
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

/** Removes every copy of header `name` (lower case) from a request, from both of Node's views of its headers. */
function removeHeader(request: IncomingMessage, name: string): void {
  if (!(name in request.headers)) return;
  delete request.headers[name];
  const raw: string[] = [];
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    if (request.rawHeaders[i]!.toLowerCase() !== name) raw.push(request.rawHeaders[i]!, request.rawHeaders[i + 1]!);
  }
  request.rawHeaders = raw;
}

/** Sets header `name` (lower case) of a request to `value`, in both of Node's views of its headers. */
function setHeader(request: IncomingMessage, name: string, value: string): void {
  removeHeader(request, name);
  request.headers[name] = value;
  request.rawHeaders.push(name, value);
}

/** A JSON answer of this server's own, the request body left unread (the connection closes). */
function answer(response: ServerResponse, status: number, code: string, message: string, hint: string, extra: Record<string, string> = {}): void {
  const body = errorBody(message, code, hint);
  response.writeHead(status, { ...errorHead(status, body), ...extra }).end(body);
}

/** The longest login form this server reads: a token is 47 characters. */
const LOGIN_BODY_LIMIT = 4096;

/**
 * One request to a team server (issue 39): the login form and logout are answered here; the
 * login page and its assets pass without a token; every other request needs a token
 * (`Authorization: Bearer`, else the login cookie) that `team.authenticate` knows, else 401, and a
 * role that allows it (lib/team/auth `roleRefusal`), else 403; neither reaches `handler` (a
 * browser's page navigation without a token is sent to the login form instead of the 401). An
 * allowed request reaches it with {@link ACTOR_HEADER} set and runs as its actor (lib/context `runAsActor`).
 */
async function handleTeamRequest(team: NonNullable<DashboardServerOptions["team"]>, request: IncomingMessage, response: ServerResponse, handler: RequestHandler, secure: boolean): Promise<void> {
  const method = request.method ?? "GET";
  const path = requestPath(request.url ?? "/");
  if (method === "POST" && path === LOGIN_PATH) return login(team, request, response, secure);
  if (method === "POST" && path === LOGOUT_PATH) {
    response.writeHead(303, { ...SECURITY_HEADERS, location: LOGIN_PATH, "set-cookie": tokenCookie("", 0, secure), "content-length": 0 }).end();
    return;
  }
  const token = requestToken(request.headers.authorization, request.headers.cookie);
  if (isPublicRequest(method, path)) {
    // The login page names who is signed in (and offers Sign out) only to a request whose token is valid.
    const signedIn = path === LOGIN_PATH && token !== null ? await team.authenticate(token) : null;
    if (signedIn === null) return handler(request, response);
    setHeader(request, ACTOR_HEADER, JSON.stringify(signedIn));
    return runAsActor({ machine: signedIn.machine, role: signedIn.role }, () => handler(request, response));
  }
  const actor = token === null ? null : await team.authenticate(token);
  if (actor === null) {
    // A browser opening a page is sent to the login form, which keeps the page to return to; every other request gets the 401.
    // A sign-in cookie that stopped being valid (its token revoked) is cleared on the way, and the form says the token is not valid.
    if (method === "GET" && request.headers["sec-fetch-mode"] === "navigate" && request.headers.authorization === undefined) {
      const stale = token !== null;
      response.writeHead(303, { ...SECURITY_HEADERS, location: loginUrl(request.url, stale ? { failed: "1" } : undefined), ...(stale ? { "set-cookie": tokenCookie("", 0, secure) } : {}), "content-length": 0 }).end();
      return;
    }
    const message = token === null ? "this team server needs a token" : "the token is not valid (unknown or revoked)";
    return answer(response, 401, "unauthorized", message, `send Authorization: Bearer TOKEN, or sign in at ${LOGIN_PATH}`, { "www-authenticate": 'Bearer realm="casefile"' });
  }
  const refusal = roleRefusal(actor.role, method, path, request.headers["next-action"] !== undefined);
  if (refusal) return answer(response, 403, "forbidden", refusal, "ask for a token with a role that allows it (casefile token create --role push|admin)");
  setHeader(request, ACTOR_HEADER, JSON.stringify(actor));
  return runAsActor({ machine: actor.machine, role: actor.role }, () => handler(request, response));
}

/** The login cookie: the token, HttpOnly, SameSite=Strict, for the whole site; Secure over HTTPS. */
function tokenCookie(token: string, maxAgeS: number, secure: boolean): string {
  return `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; Max-Age=${maxAgeS}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

/**
 * `POST /login` with the form field `token`: a known token sets the cookie and goes to the
 * form's `next` page (lib/team/return-to `safeReturnPath`, else `/`); anything else goes back to
 * the form with `?failed=1` (and the same `next`), nothing set. A
 * form posted from another origin is refused (403): no site may sign a browser in with its token.
 * A browser says where a form came from in `Sec-Fetch-Site` (its own pages: `same-origin`); the
 * Origin header cannot say it, as Chromium sends `Origin: null` for a form posted from a page
 * whose Referrer-Policy is no-referrer, as every page here is. Without fetch metadata (a script,
 * an old browser) an Origin other than this server's is refused.
 */
async function login(team: NonNullable<DashboardServerOptions["team"]>, request: IncomingMessage, response: ServerResponse, secure: boolean): Promise<void> {
  const origin = request.headers.origin;
  const site = request.headers["sec-fetch-site"];
  const foreign = site !== undefined ? site !== "same-origin" : origin !== undefined && origin !== `${secure ? "https" : "http"}://${request.headers.host}`;
  if (foreign) {
    const from = site !== undefined ? `Sec-Fetch-Site ${site}` : `origin ${origin}`;
    return answer(response, 403, "forbidden", `a sign-in from another site (${from.slice(0, 100)}) is refused`, `sign in from ${LOGIN_PATH} on this server`);
  }
  let text = "";
  for await (const chunk of request) {
    text += (chunk as Buffer).toString("utf8");
    if (text.length > LOGIN_BODY_LIMIT) return answer(response, 413, "invalid_input", "the sign-in form is too large", "send only the token");
  }
  const form = new URLSearchParams(text);
  const token = form.get("token")?.trim() ?? "";
  const returnTo = form.get(RETURN_PARAM);
  const actor = token === "" ? null : await team.authenticate(token);
  const head = { ...SECURITY_HEADERS, "content-length": 0 };
  if (actor === null) {
    response.writeHead(303, { ...head, location: loginUrl(returnTo, { failed: "1" }) }).end();
    return;
  }
  response.writeHead(303, { ...head, location: safeReturnPath(returnTo) ?? "/", "set-cookie": tokenCookie(token, TOKEN_COOKIE_MAX_AGE_S, secure) }).end();
}

/** True for a loopback address or name: `localhost`, `::1`, `127.x.x.x`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1");
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Why the dashboard may not listen on `host`, or null (issue 39, "Security"): beyond loopback,
 * only a team server (every request needs a token), and only over TLS unless `insecureHttp`
 * says plainly that tokens may cross the network in clear text.
 */
export function bindingRefusal(host: string, options: { team: boolean; tls: boolean; insecureHttp: boolean }): string | null {
  if (isLoopbackHost(host)) return null;
  if (!options.team) return `--host ${host} is not a loopback address: only a team server (--database URL) listens beyond this machine, since every request to it needs a token`;
  if (!options.tls && !options.insecureHttp) {
    return `--host ${host} is not a loopback address: give --tls-cert FILE --tls-key FILE to serve HTTPS, or --insecure-http to send tokens over plain HTTP`;
  }
  return null;
}
