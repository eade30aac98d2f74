/**
 * Why this browser may not write (evidence chains, work items) on a team server, in plain words,
 * or null when it may (issue 39): a `read` token reads only, and its writes are refused at the
 * server (lib/context `actorDecision`); the dashboard says so on its writing controls up front.
 * `signedIn` null (a local dashboard) writes as before.
 */
export function writeRefusal(signedIn: { machine: string; role: string } | null): string | null {
  if (signedIn?.role !== "read") return null;
  return `Your token is read-only (machine ${signedIn.machine}): it may read, not write. Ask for a push or admin token to write.`;
}
