import "server-only";

/**
 * Who sent a team request (issue 39): the token's machine and role, which the dashboard server
 * checks before Next sees the request and passes on in {@link TEAM_ACTOR_HEADER}, a header it
 * sets itself (stripping any the client sent). Null when there is none: the request is refused.
 */
export type PushActor = { machine: string; role: "push" | "read" | "admin" };

/** The header the dashboard server sets to the authenticated actor's JSON. */
export const TEAM_ACTOR_HEADER = "x-casefile-actor";

/** The authenticated actor of `request`, or null when the server passed none (or a malformed one). */
export function teamActorOf(request: Request): PushActor | null {
  const raw = request.headers.get(TEAM_ACTOR_HEADER);
  if (raw === null) return null;
  try {
    const value = JSON.parse(raw) as Partial<PushActor>;
    if (typeof value.machine === "string" && (value.role === "push" || value.role === "read" || value.role === "admin")) return { machine: value.machine, role: value.role };
  } catch {
    /* refused below */
  }
  return null;
}
