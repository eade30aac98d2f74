// The list_sessions row of a catalog session row.

import { localMachine } from "@/lib/workspace/machines";
import type { SessionListItem } from "@/lib/workspace/schema";

/** The list_sessions row of a catalog session row. */
export function sessionItem(r: Record<string, unknown>): SessionListItem {
  return {
    session_ref: r.session_ref as string,
    source: r.source as string,
    source_session_id: r.source_session_id as string,
    started_at: (r.started_at as string | null) ?? null,
    ended_at: (r.ended_at as string | null) ?? null,
    duration_seconds: (r.duration_seconds as number | null) ?? null,
    turn_count: r.turn_count as number,
    first_user_message: (r.first_user_message as string | null) ?? null,
    subagent_count: r.subagent_count as number,
    size_bytes: r.size_bytes as number,
    output_tokens: (r.output_tokens as number | null) ?? null,
    total_tokens: (r.total_tokens as number | null) ?? null,
    cost_usd: (r.cost_usd as number | null) ?? null,
    status: (r.status as SessionListItem["status"]) ?? null,
    last_response_preview: (r.last_response_preview as string | null) ?? null,
    risk_level: (r.risk_level as SessionListItem["risk_level"]) ?? null,
    reset_count: (r.reset_count as number | null) ?? null,
    machine: (r.machine as string | null) ?? localMachine(),
  };
}
