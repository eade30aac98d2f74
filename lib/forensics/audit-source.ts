/** A session's audit-ledger events as the timeline merges them, and how a reader of them is passed in (the ledger sits above forensics). */
import type { CoreContext } from "@/lib/context";
import type { SessionScan } from "@/lib/forensics/scan";
import type { AuditDiagnostics, ToolCounts } from "@/lib/forensics/schema";

/** The fields of an audit ledger entry (seed 002) the timeline and diagnostics read; the rest is carried as is. */
export type AuditEntryFields = { readonly kind: string; readonly receipt_id: string; readonly timestamp: string; readonly [field: string]: unknown };

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
  entry: AuditEntryFields;
};

/**
 * Reads a session's audit events in timeline order (lib/ledger/session-audit provides the one
 * reader; session_overview and reconstruct_session are given it where their tools are defined).
 */
export type AuditReader = (ctx: CoreContext, projectKey: string, sessionRef: string) => Promise<AuditEvent[]>;

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

/** Counts the audit events of a session (an {@link AuditReader}'s) by receipt, tool and door. */
export function auditDiagnostics(audit: readonly AuditEvent[]): AuditDiagnostics {
  const receipts = new Map<string, { tool: string; door: string; result: string | null }>();
  for (const ev of audit) {
    const r = receipts.get(ev.entry.receipt_id) ?? { tool: ev.toolName ?? "unknown", door: ev.door ?? "unknown", result: null };
    const outcome = ev.entry.outcome as { result: string } | undefined;
    if (ev.entry.kind === "tool_call_finished") r.result = ev.entry.result as string;
    else if (r.result === null && outcome) r.result = outcome.result;
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
