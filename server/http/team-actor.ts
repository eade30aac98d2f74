import "server-only";

import { ACTOR_HEADER } from "@/lib/team/auth";
import { TEAM_ROLES, type TeamActor } from "@/lib/team/tokens";

/**
 * Who sent a team request (issue 39): the token's actor, which the dashboard server checks
 * before Next sees the request (server/serve/dashboard-server, team mode) and passes on in
 * {@link ACTOR_HEADER}, a header it sets itself after removing any the client sent. Null when
 * there is none (a local dashboard, not a team server) or it is malformed: the request is refused.
 */
export function teamActorOf(request: Request): TeamActor | null {
  const raw = request.headers.get(ACTOR_HEADER);
  if (raw === null) return null;
  try {
    const value = JSON.parse(raw) as Partial<TeamActor>;
    if (typeof value.machine === "string" && (TEAM_ROLES as readonly unknown[]).includes(value.role)) return { token_id: String(value.token_id ?? ""), machine: value.machine, role: value.role! };
  } catch {
    /* refused by the caller */
  }
  return null;
}
