import type { Column } from "@/components/data-table/types";
import { formatLocalDateTime } from "@/components/format/format";
import type { AuditEntryView } from "@/lib/ledger/schema";

/** A call as the table shows it: the started entry with its outcome. */
export type AuditRow = AuditEntryView & { kind: "tool_call_started" };

const RESULT_STYLE: Record<string, string> = {
  success: "text-ok",
  failure: "text-warn",
  denied: "text-danger",
  crashed: "text-danger font-semibold",
  running: "text-muted",
};

/** The Audit table's columns: time, door (and a team server's caller), tool, task, result, duration. */
export const AUDIT_COLUMNS: readonly Column<AuditRow>[] = [
  { id: "time", header: "Time", width: "9.5rem", cell: (r) => <span className="tabular-nums">{formatLocalDateTime(r.timestamp)}</span> },
  // On a team server, the caller's machine too (issue 39: a call is audited with its token's machine and role).
  {
    id: "door",
    header: "Door",
    width: "7rem",
    cell: (r) => (
      <span className="truncate" title={[r.client, r.actor && `machine ${r.actor.machine}, role ${r.actor.role}`].filter(Boolean).join(" · ") || undefined}>
        {r.door}
        {r.client && r.client !== r.door ? ` · ${r.client}` : ""}
        {r.actor ? ` · ${r.actor.machine}` : ""}
      </span>
    ),
  },
  { id: "tool", header: "Tool", width: "minmax(8rem, 1fr)", cell: (r) => <span className="truncate font-mono text-xs" title={r.tool_name}>{r.tool_name}</span> },
  { id: "task", header: "Session / project", width: "minmax(8rem, 1.2fr)", cell: (r) => <span className="truncate font-mono text-xs" title={r.task_id}>{r.task_id}</span> },
  {
    id: "result",
    header: "Result",
    width: "12.5rem",
    cell: (r) => {
      const result = r.outcome?.result ?? "running";
      const text = `${result}${r.outcome?.status && r.outcome.status !== "ok" ? ` · ${r.outcome.status}` : ""}`;
      // The whole text, never cut (issue 29: "success · ap…" hid what happened).
      return <span data-testid="audit-result" className={`whitespace-nowrap ${RESULT_STYLE[result]}`}>{text}</span>;
    },
  },
  { id: "duration", header: "Duration", width: "5rem", align: "right", cell: (r) => (r.outcome ? `${r.outcome.duration_ms} ms` : "—") },
];
