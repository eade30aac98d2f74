/** Requests accepted only from this machine: Host and Origin checks of the HTTP door. */
import type { PolicyDecision } from "@/lib/context";

/** A header value as a refusal quotes it: at most 100 characters, so a huge header makes no huge record. */
const shown = (value: string): string => (value.length > 100 ? `${value.slice(0, 99)}…` : value);

/** The loopback names a Host may carry, exactly (issue 26: no suffix, no other 127.x address). */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The port the server listens on: `$CASEFILE_PORT` (set by `casefile serve`), else `$PORT`;
 * null when neither is a port (then any port is accepted).
 */
export function serverPort(env: Readonly<Record<string, string | undefined>> = process.env): number | null {
  const port = Number(env.CASEFILE_PORT ?? env.PORT);
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : null;
}

/**
 * Why a Host header value is not this server's loopback address, or null when it is. Parsed with
 * the WHATWG URL parser, and the header must be exactly the parsed `host` (a loopback name and
 * an optional port): nothing after it (`127.0.0.1:3918.evil.com`, `[::1]evil.com`), no user
 * info (`localhost:3918@evil.com`), no path. The port must be the server's (`port`), 80 when
 * absent; a null `port` accepts any.
 */
export function hostProblem(host: string | null, port: number | null = serverPort()): string | null {
  if (!host) return "no Host header";
  const value = host.trim().toLowerCase();
  let url: URL;
  try {
    url = new URL(`http://${value}`);
  } catch {
    return `Host '${shown(host)}' is not a host name`;
  }
  if (url.host !== value || url.username || url.password || url.pathname !== "/" || url.search || url.hash) return `Host '${shown(host)}' is not a loopback name and port`;
  if (!LOOPBACK_HOSTS.has(url.hostname)) return `Host '${shown(host)}' is not a loopback name`;
  const given = url.port === "" ? 80 : Number(url.port);
  if (port !== null && given !== port) return `Host '${host}' names port ${given}, not this server's ${port}`;
  return null;
}

/**
 * The two rules a request must pass (architecture.md, "Local only"), each with its decision:
 * `door.host` — the Host must be exactly a loopback name and the server's `port`
 * ({@link hostProblem}; defeats DNS rebinding); `door.origin` — a
 * state-changing method must not come from another origin (defeats cross-site writes). An opaque
 * `Origin: null` (sandboxed iframes, `data:` pages) is a foreign origin and is refused. A request
 * without Origin (curl, the CLI's HTTP clients) passes. On a team server (`CASEFILE_TEAM_SERVER=1`,
 * set by server/serve/start-dashboard once every request needs a token) any Host passes: a
 * rebound site's requests carry no token (issue 39).
 */
export function localRequestDecisions(method: string, host: string | null, origin: string | null, port: number | null = serverPort()): PolicyDecision[] {
  const decisions: PolicyDecision[] = [];
  const problem = process.env.CASEFILE_TEAM_SERVER === "1" && host ? null : hostProblem(host, port);
  decisions.push(problem === null ? { rule: "door.host", decision: "allow", detail: `Host ${host}` } : { rule: "door.host", decision: "deny", detail: problem });
  const safe = method === "GET" || method === "HEAD" || method === "OPTIONS";
  if (safe || origin === null) {
    decisions.push({ rule: "door.origin", decision: "allow", detail: safe ? `${method} is not state-changing` : "no Origin header (not a browser page)" });
    return decisions;
  }
  if (origin === "null") {
    decisions.push({ rule: "door.origin", decision: "deny", detail: `${method} from an opaque origin ('null': a sandboxed frame or data: page) refused` });
    return decisions;
  }
  let originHost: string;
  try {
    originHost = new URL(origin).host.toLowerCase();
  } catch {
    decisions.push({ rule: "door.origin", decision: "deny", detail: `Origin '${shown(origin)}' is not a URL` });
    return decisions;
  }
  const same = Boolean(host) && originHost === host!.trim().toLowerCase();
  decisions.push(same ? { rule: "door.origin", decision: "allow", detail: `same origin ${origin}` } : { rule: "door.origin", decision: "deny", detail: `cross-origin ${shown(method)} from '${shown(origin)}' refused` });
  return decisions;
}

/**
 * Decides whether a request may reach the dashboard: null when allowed, else the reason of the
 * first rule of {@link localRequestDecisions} that denies it.
 */
export function rejectNonLocalRequest(method: string, host: string | null, origin: string | null, port: number | null = serverPort()): string | null {
  return localRequestDecisions(method, host, origin, port).find((d) => d.decision === "deny")?.detail ?? null;
}
