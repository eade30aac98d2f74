import type { CoreContext } from "@/lib/context";
import type { SessionScan } from "@/lib/forensics/scan";
import type { AuditDiagnostics, ToolCounts } from "@/lib/forensics/schema";
import { getLedger } from "@/lib/ledger/ledger-store";
import { queryAudit } from "@/lib/ledger/query";
import type { AuditEntryView } from "@/lib/ledger/schema";

/**
 * Tools whose own calls are left out of a session's audit source, whatever the door: the
 * read-only forensics and viewer reads. Each of them is recorded on the session it reads, so
 * counting them would make every overview or timeline page differ from the previous one
 * (seed 004: same call, same bytes).
 */
export const UNLISTED_AUDIT_TOOLS: ReadonlySet<string> = new Set(["session_overview", "reconstruct_session", "grep_jsonl", "query_ledger_full", "inspect_ledger_task", "read_viewer_lines"]);

/** One audit ledger entry of a session, as a timeline event. */
export type AuditEvent = {
  /** Epoch ms of the entry's timestamp (+Infinity when it does not parse: sorts last). */
  ms: number;
  timestamp: string;
  /** The ledger file as the ledger reports it (`tool-traces.jsonl` or a sealed segment). */
  file: string;
  /** 1-based physical line in `file`. */
  line: number;
  /** `tool_call_started` or `tool_call_finished`. */
  eventType: string;
  toolName: string | null;
  door: string | null;
  entry: AuditEntryView;
};

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
export async function sessionAuditEvents(ctx: CoreContext, projectKey: string, sessionRef: string): Promise<AuditEvent[]> {
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
}

/**
 * The merged timeline order of a session's transcript events and its audit events: each value
 * is a scan slot (`< scan.count`) or `scan.count + i` for `audit[i]`. An audit event goes after
 * every transcript event of the same or an earlier time (source priority: audit is last), and
 * before those later; transcript events keep the scan's order. O(events + audit · log events).
 */
export function mergeAuditOrder(scan: SessionScan, audit: readonly AuditEvent[]): Uint32Array {
  if (audit.length === 0) return scan.order;
  const n = scan.order.length;
  const out = new Uint32Array(n + audit.length);
  let from = 0;
  let at = 0;
  for (let i = 0; i < audit.length; i++) {
    const cut = upperBound(scan, audit[i]!.ms, from);
    out.set(scan.order.subarray(from, cut), at);
    at += cut - from;
    from = cut;
    out[at++] = scan.count + i;
  }
  out.set(scan.order.subarray(from), at);
  return out;
}

/** First position ≥ `lo` in `scan.order` whose sort time is greater than `ms`. */
function upperBound(scan: SessionScan, ms: number, lo: number): number {
  let hi = scan.order.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (scan.sortKey[scan.order[mid]!]! <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Counts the audit events of a session ({@link sessionAuditEvents}) by receipt, tool and door. */
export function auditDiagnostics(audit: readonly AuditEvent[]): AuditDiagnostics {
  const receipts = new Map<string, { tool: string; door: string; result: string | null }>();
  for (const ev of audit) {
    const r = receipts.get(ev.entry.receipt_id) ?? { tool: ev.toolName ?? "unknown", door: ev.door ?? "unknown", result: null };
    if (ev.entry.kind === "tool_call_finished") r.result = ev.entry.result;
    else if (r.result === null && ev.entry.outcome) r.result = ev.entry.outcome.result;
    receipts.set(ev.entry.receipt_id, r);
  }
  const byTool = new Map<string, ToolCounts>();
  const byDoor = new Map<string, number>();
  for (const r of receipts.values()) {
    const c = byTool.get(r.tool) ?? { called: 0, succeeded: 0, failed: 0 };
    c.called += 1;
    if (r.result === "success") c.succeeded += 1;
    else if (r.result !== null) c.failed += 1;
    byTool.set(r.tool, c);
    byDoor.set(r.door, (byDoor.get(r.door) ?? 0) + 1);
  }
  const sorted = <T>(m: Map<string, T>): Record<string, T> => Object.fromEntries([...m.keys()].sort().map((k) => [k, m.get(k)!]));
  return {
    calls: receipts.size,
    entries: audit.length,
    by_tool: sorted(byTool),
    by_door: sorted(byDoor),
    first_at: audit[0]?.timestamp ?? null,
    last_at: audit.at(-1)?.timestamp ?? null,
  };
}
