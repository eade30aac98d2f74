/**
 * Where a browser goes once signed in to a team server (issue 39): the page it opened before it
 * had a token. The redirect to the login page carries it (`/login?next=/projects/…`), the login
 * form posts it back, and the login answer goes there, only when it is a path on this site.
 */
import { LOGIN_PATH, LOGOUT_PATH } from "@/lib/team/auth";

/** The login page's query parameter and form field naming the page to return to. */
export const RETURN_PARAM = "next";

/** The longest return path kept (longer ones go to the home page). */
const RETURN_PATH_MAX = 2048;

/**
 * `value` when it is a path on this site a signed-in browser may be sent to, else null (no open
 * redirect): a string of at most 2,048 characters starting with a single `/` (not `//`, a host to
 * URL parsers), with no backslash (browsers read `/\host` as `//host`), no space or control
 * character, that resolves to this site, and is not the login or logout page.
 */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== "string" || value.length > RETURN_PATH_MAX) return null;
  if (!value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return null;
  if (/[\u0000-\u0020\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, "http://return.invalid");
  } catch {
    return null;
  }
  if (url.origin !== "http://return.invalid" || url.pathname === LOGIN_PATH || url.pathname === LOGOUT_PATH) return null;
  return value;
}

/** The login page's URL keeping `returnTo` (when it is a {@link safeReturnPath} other than `/`), with `extra` parameters first. */
export function loginUrl(returnTo: unknown, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(extra);
  const path = safeReturnPath(returnTo);
  if (path !== null && path !== "/") params.set(RETURN_PARAM, path);
  const query = params.toString();
  return query ? `${LOGIN_PATH}?${query}` : LOGIN_PATH;
}
