/**
 * A team server's request rules (issue 39): where a request's token comes from, which requests
 * need none (the login page), and what each role may request. Tool calls are checked again
 * where the tool is known (lib/context `actorDecision`, applied by the audit ledger's recorder).
 */
import type { TeamRole } from "@/lib/team/tokens";

/** The header the team server sets to the authenticated actor's JSON `{token_id, machine, role}`, after removing any the client sent. */
export const ACTOR_HEADER = "x-casefile-actor";

/** The cookie the login page sets (HttpOnly, SameSite=Strict): the token itself, checked like a bearer token. */
export const TOKEN_COOKIE = "casefile_token";

/** The login page's path: GET shows its form, POST (form field `token`) sets the cookie, answered by the server itself. */
export const LOGIN_PATH = "/login";
/** POST here clears the cookie. */
export const LOGOUT_PATH = "/logout";

/** How long the login cookie lasts: 30 days (the token itself lasts until revoked). */
export const TOKEN_COOKIE_MAX_AGE_S = 30 * 24 * 3600;

/**
 * The token a request carries: `Authorization: Bearer TOKEN` (the CLI, push, MCP clients), else
 * the {@link TOKEN_COOKIE} cookie (the browser, after the login page). Null when it has neither.
 */
export function requestToken(authorization: string | undefined, cookie: string | undefined): string | null {
  const bearer = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? "")?.[1];
  if (bearer) return bearer;
  for (const part of (cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === TOKEN_COOKIE) return decodeCookieValue(part.slice(eq + 1).trim()) || null;
  }
  return null;
}

function decodeCookieValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The request's path with dot segments resolved and no query (`/a/../b?x` → `/b`), as routes are matched. */
export function requestPath(target: string): string {
  try {
    return new URL(target, "http://team.invalid").pathname;
  } catch {
    return target;
  }
}

/**
 * True for what a browser needs before it has a token: the login page, its stylesheets and
 * scripts (`/_next/static/`) and the icon. Only GET and HEAD.
 */
export function isPublicRequest(method: string, path: string): boolean {
  if (method !== "GET" && method !== "HEAD") return false;
  return path === LOGIN_PATH || path.startsWith("/_next/static/") || path === "/favicon.ico";
}

/** Reading methods: every role may use them. */
const READING = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Why `role` may not make this request, or null when it may (issue 39):
 * - `read`: GET/HEAD/OPTIONS anywhere, and tool calls (`POST /api/tools/<name>`, MCP over HTTP
 *   `POST /api/mcp`, server actions: a POST with a `Next-Action` header), whose tool is checked
 *   where it is known (lib/context `actorDecision`);
 * - `push`: the same, and anything under `/api/team/push/` (the push protocol);
 * - `admin`: everything.
 * Anything else is refused (fail closed: a new route needs a rule here).
 */
export function roleRefusal(role: TeamRole, method: string, path: string, serverAction: boolean): string | null {
  if (role === "admin") return null;
  if (READING.has(method)) return null;
  if (method === "POST" && (/^\/api\/tools\/[^/]+$/.test(path) || path === "/api/mcp" || (serverAction && !path.startsWith("/api/")))) return null;
  if (role === "push" && path.startsWith("/api/team/push/")) return null;
  return `a ${role} token may not ${method} ${path}${role === "read" ? ": it may read and call read-only tools" : ""}`;
}
