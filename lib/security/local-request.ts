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
 * Decides whether a request may reach the dashboard (architecture.md, "Local only"): the Host
 * must be a loopback name (defeats DNS rebinding), and a state-changing method must not come
 * from another origin (defeats cross-site writes). Returns null when allowed, else the reason.
 */
export function rejectNonLocalRequest(method: string, host: string | null, origin: string | null): string | null {
  if (!host || !isLoopback(hostname(host))) return `Host '${host ?? ""}' is not a loopback name`;
  const safe = method === "GET" || method === "HEAD" || method === "OPTIONS";
  if (!safe && origin && origin !== "null") {
    let originHost: string;
    try {
      originHost = new URL(origin).host.toLowerCase();
    } catch {
      return `Origin '${origin}' is not a URL`;
    }
    if (originHost !== host.trim().toLowerCase()) return `cross-origin ${method} from '${origin}' refused`;
  }
  return null;
}
