/** Test oracle of `list_sessions` (seed 004): a project's sessions with summary, status and risk read from their files, filtered and sorted as the catalog does (lib/catalog/queries). */
import { inLanes } from "@/lib/async/lanes";
import { getSessionRiskIfReady } from "@/lib/analysis/session-analysis";
import { listSessionsRequest } from "@/lib/catalog/queries";
import type { CoreContext } from "@/lib/context";
import type { ListSessionsResult, SessionListItem, SessionSortKey } from "@/lib/workspace/schema";
import { getSessionSummary } from "@/lib/forensics/session-summary";
import type { ToolInputInvalid } from "@/lib/tools/define-tool";
import { projectMachines, sessionMachine } from "@/lib/workspace/machines";
import { resolveSession } from "@/lib/workspace/sessions";

/** Rows summarised at once by `list_sessions`. */
const LIST_CONCURRENCY = 16;

/**
 * `list_sessions` (seed 004's paginated shape over a project's indexed sessions):
 * filters by `q` (case-insensitive, over session_ref, source, source_session_id and the
 * first user message), sorts by `sort`/`order` (nulls last), then slices `offset`/`limit`.
 * `count` is the number of rows returned and `total` the number matching `q`.
 * Returns `{status:"invalid", errors:[{field,message,hint}]}` for bad input or an unknown project.
 * @throws AppError parse_error when the workspace is malformed (contract §1.10).
 */
export async function listSessions(ctx: CoreContext, input: unknown): Promise<ListSessionsResult | ToolInputInvalid> {
  const request = await listSessionsRequest(ctx, input);
  if (request.status === "invalid") return request;
  const { project, input: { project_key, limit, offset, sort, order, q, risk, source, machine } } = request;
  // Rows are independent: a few at a time, so their file-system calls overlap (order kept).
  const items: SessionListItem[] = new Array<SessionListItem>(project.rows.length);
  const pending: string[] = [];
  await inLanes(project.rows, LIST_CONCURRENCY, async (row, i) => {
    const resolved = await resolveSession(ctx, project_key, row.session_ref);
    if (!resolved.ok) {
      items[i] = missingFileItem(row.session_ref, row.source, row.source_session_id, row.turns.length, sessionMachine(project.dir, row.session_ref));
      return;
    }
    const summary = await getSessionSummary(ctx, resolved.session);
    const risk = await getSessionRiskIfReady(ctx, resolved.session);
    if (risk === "pending") pending.push(row.session_ref);
    items[i] = { ...summary, machine: sessionMachine(project.dir, row.session_ref), ...(risk === "pending" ? { risk_level: null, reset_count: null } : risk) };
  });
  const needle = q?.toLowerCase();
  const matching = (needle
    ? items.filter((s) => [s.session_ref, s.source, s.source_session_id, s.first_user_message ?? ""].some((v) => v.toLowerCase().includes(needle)))
    : items
  ).filter((s) => (!risk || s.risk_level === risk) && (!source || s.source === source) && (!machine || s.machine === machine));
  const sorted = [...matching].sort(compareBy(sort, order));
  const page = sorted.slice(offset, offset + limit);
  const machines = projectMachines(project.dir, project.rows.map((r) => r.session_ref));
  return { status: "ok", project_key, count: page.length, total: matching.length, offset, limit, sessions: page, machines, risk_pending: pending.sort() };
}

function missingFileItem(ref: string, source: string, id: string, turns: number, machine: string): SessionListItem {
  return { session_ref: ref, source, source_session_id: id, started_at: null, ended_at: null, duration_seconds: null, turn_count: turns, first_user_message: null, subagent_count: 0, size_bytes: 0, output_tokens: null, total_tokens: null, cost_usd: null, status: null, last_response_preview: null, risk_level: null, reset_count: null, machine };
}

function compareBy(key: SessionSortKey, order: "asc" | "desc") {
  const dir = order === "asc" ? 1 : -1;
  return (a: SessionListItem, b: SessionListItem): number => {
    const av = a[key];
    const bv = b[key];
    if (av === bv) return a.session_ref.localeCompare(b.session_ref);
    if (av === null) return 1;
    if (bv === null) return -1;
    return (av < bv ? -1 : 1) * dir;
  };
}
