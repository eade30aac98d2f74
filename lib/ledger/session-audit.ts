/** The audit ledger's entries on one session, as forensics' timeline events: the one {@link AuditReader}. */
import type { CoreContext } from "@/lib/context";
import type { AuditEvent, AuditReader } from "@/lib/forensics/audit-source";
import { getLedger } from "@/lib/ledger/ledger-store";
import { queryAudit } from "@/lib/ledger/query";

/**
 * Tools whose own calls are left out of a session's audit source, whatever the door: the
 * read-only forensics and viewer reads. Each of them is recorded on the session it reads, so
 * counting them would make every overview or timeline page differ from the previous one
 * (seed 004: same call, same bytes).
 */
export const UNLISTED_AUDIT_TOOLS: ReadonlySet<string> = new Set(["session_overview", "reconstruct_session", "grep_jsonl", "query_ledger_full", "inspect_ledger_task", "read_viewer_lines"]);

/**
 * The audit ledger's entries (seed 002) whose task is this session (`task_id` =
 * `project_key/session_ref`), ordered by timestamp then ledger order, leaving out two kinds of
 * calls so that reading a session never changes what the next read returns: the calls of
 * {@link UNLISTED_AUDIT_TOOLS} from any door, and the dashboard's own read-only calls (door `ui`,
 * no write scope), which every page view makes. What stays: every write (evidence chains, work
 * items) through any door, and agents' other reads (MCP, HTTP, CLI). Both halves of a receipt
 * go together: the finished entry is left out when its started entry is.
 * Read fresh on every call (the ledger's incremental index): never cached with the session scan.
 * @throws the ledger's read errors.
 */
export const sessionAuditEvents: AuditReader = async (ctx: CoreContext, projectKey: string, sessionRef: string): Promise<AuditEvent[]> => {
  const page = await queryAudit(getLedger(ctx.workspaceRoot), { task_id: `${projectKey}/${sessionRef}` }, { offset: 0, max_entries: Number.MAX_SAFE_INTEGER, order: "asc" });
  const left = new Set<string>();
  for (const entry of page.entries) {
    if (entry.kind !== "tool_call_started") continue;
    const writes = entry.scope_enforced.some((s) => s.access === "write");
    if (UNLISTED_AUDIT_TOOLS.has(entry.tool_name) || (entry.door === "ui" && !writes)) left.add(entry.receipt_id);
  }
  const out: AuditEvent[] = [];
  for (const entry of page.entries) {
    if (left.has(entry.receipt_id)) continue;
    const call = entry.kind === "tool_call_started" ? { tool_name: entry.tool_name, door: entry.door } : entry.call;
    const ms = Date.parse(entry.timestamp);
    out.push({
      ms: Number.isNaN(ms) ? Number.POSITIVE_INFINITY : ms,
      timestamp: entry.timestamp,
      file: entry.at.file,
      line: entry.at.line,
      eventType: entry.kind,
      toolName: call?.tool_name ?? null,
      door: call?.door ?? null,
      entry,
    });
  }
  // Stable: equal times keep ledger order (several processes may append out of time order).
  out.sort((a, b) => (a.ms === b.ms ? 0 : a.ms < b.ms ? -1 : 1));
  return out;
};
