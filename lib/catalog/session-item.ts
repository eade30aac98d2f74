// The list_sessions row of a catalog session row.

import type { CatalogSessionRow } from "@/lib/catalog/store";
import { localMachine } from "@/lib/workspace/machines";
import type { SessionListItem } from "@/lib/workspace/schema";

/** The list_sessions row of a catalog session row (a session without a recorded machine is the local machine's). */
export function sessionItem(r: CatalogSessionRow): SessionListItem {
  return {
    session_ref: r.session_ref,
    source: r.source,
    source_session_id: r.source_session_id,
    started_at: r.started_at,
    ended_at: r.ended_at,
    duration_seconds: r.duration_seconds,
    turn_count: r.turn_count,
    first_user_message: r.first_user_message,
    subagent_count: r.subagent_count,
    size_bytes: r.size_bytes,
    output_tokens: r.output_tokens,
    total_tokens: r.total_tokens,
    cost_usd: r.cost_usd,
    status: r.status as SessionListItem["status"],
    last_response_preview: r.last_response_preview,
    risk_level: r.risk_level as SessionListItem["risk_level"],
    reset_count: r.reset_count,
    machine: r.machine ?? localMachine(),
  };
}
