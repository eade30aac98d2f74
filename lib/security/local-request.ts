import type { PolicyDecision } from "@/lib/context";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** Strips the port from a Host header value (`127.0.0.1:3000` → `127.0.0.1`, `[::1]:3000` → `[::1]`). */
function hostname(host: string): string {
  const value = host.trim().toLowerCase();
  if (value.startsWith("[")) return value.slice(0, value.indexOf("]") + 1);
  return value.split(":")[0] ?? "";
}

function isLoopback(name: string): boolean {
  return LOOPBACK_HOSTS.has(name) || /^127(\.\d{1,3}){3}$/.test(name) || name.endsWith(".localhost");
}

/**
 * The two rules a request must pass (architecture.md, "Local only"), each with its decision:
 * `door.host` — the Host must be a loopback name (defeats DNS rebinding); `door.origin` — a
 * state-changing method must not come from another origin (defeats cross-site writes). An opaque
 * `Origin: null` (sandboxed iframes, `data:` pages) is a foreign origin and is refused (issue 8
 * probe: it used to be accepted). A request without Origin (curl, the CLI's HTTP clients) passes.
 */
export function localRequestDecisions(method: string, host: string | null, origin: string | null): PolicyDecision[] {
  const decisions: PolicyDecision[] = [];
  const hostOk = Boolean(host) && isLoopback(hostname(host!));
  decisions.push(hostOk ? { rule: "door.host", decision: "allow", detail: `Host ${host}` } : { rule: "door.host", decision: "deny", detail: `Host '${host ?? ""}' is not a loopback name` });
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
    decisions.push({ rule: "door.origin", decision: "deny", detail: `Origin '${origin}' is not a URL` });
    return decisions;
  }
  const same = Boolean(host) && originHost === host!.trim().toLowerCase();
  decisions.push(same ? { rule: "door.origin", decision: "allow", detail: `same origin ${origin}` } : { rule: "door.origin", decision: "deny", detail: `cross-origin ${method} from '${origin}' refused` });
  return decisions;
}

/**
 * Decides whether a request may reach the dashboard: null when allowed, else the reason of the
 * first rule of {@link localRequestDecisions} that denies it.
 */
export function rejectNonLocalRequest(method: string, host: string | null, origin: string | null): string | null {
  return localRequestDecisions(method, host, origin).find((d) => d.decision === "deny")?.detail ?? null;
}
