import Link from "next/link";

import type { Column } from "@/components/data-table/types";
import { RiskBadge } from "@/components/analysis/risk-badge";
import { CoverageMeter } from "@/components/evidence/coverage-meter";
import { formatBytes, formatCount, formatUsd, formatDuration, formatLocalDateTime } from "@/components/format/format";
import type { SessionEvidenceCoverage } from "@/lib/evidence/schema";
import { oneLine } from "@/lib/format/one-line";
import { isTranscriptSource, SOURCE_LABELS } from "@/lib/sources/common/schema";
import type { SessionListItem, SessionSortKey } from "@/lib/workspace/schema";

/** A list item plus its viewer link and evidence coverage, computed once per page of results. */
/** A list row as the table shows it: `riskPending` while its risk is being computed (list_sessions' `risk_pending`). */
export type SessionRow = SessionListItem & { href: string; evidence: SessionEvidenceCoverage | undefined; riskPending: boolean };

/** The DOM never needs more than a screen width of the first message. */
const MESSAGE_CLIP = 300;

/** The machine a session came from (issue 39): shown only when the project's sessions came from two or more ({@link sessionColumns}). */
export const MACHINE_COLUMN: Column<SessionRow, SessionSortKey> = {
  id: "machine",
  header: "Machine",
  width: "8rem",
  cell: (row) => (
    <span className="block truncate text-xs text-muted" title={row.machine}>
      {row.machine}
    </span>
  ),
};

/** The table's columns: {@link SESSION_COLUMNS}, with {@link MACHINE_COLUMN} after Source when `withMachine`. */
export function sessionColumns(withMachine: boolean): readonly Column<SessionRow, SessionSortKey>[] {
  if (!withMachine) return SESSION_COLUMNS;
  const at = SESSION_COLUMNS.findIndex((c) => c.id === "source") + 1;
  return [...SESSION_COLUMNS.slice(0, at), MACHINE_COLUMN, ...SESSION_COLUMNS.slice(at)];
}

export const SESSION_COLUMNS: readonly Column<SessionRow, SessionSortKey>[] = [
  {
    id: "session_ref",
    header: "Session",
    sortKey: "session_ref",
    width: "7rem",
    cell: (row) => (
      <Link href={row.href} className="font-mono font-medium text-accent hover:underline" title={row.source_session_id}>
        {row.session_ref}
      </Link>
    ),
  },
  {
    id: "source",
    header: "Source",
    width: "7rem",
    cell: (row) => <span className="text-xs text-muted">{isTranscriptSource(row.source) ? SOURCE_LABELS[row.source] : row.source}</span>,
  },
  {
    id: "started_at",
    header: "Started",
    sortKey: "started_at",
    width: "9.5rem",
    cell: (row) => (
      <time dateTime={row.started_at ?? undefined} title={row.started_at ?? undefined} className="tabular-nums">
        {formatLocalDateTime(row.started_at)}
      </time>
    ),
  },
  {
    id: "duration",
    header: "Duration",
    sortKey: "duration_seconds",
    width: "6.5rem",
    align: "right",
    cell: (row) => formatDuration(row.duration_seconds),
  },
  {
    id: "turns",
    header: "Turns",
    sortKey: "turn_count",
    width: "5rem",
    align: "right",
    cell: (row) => formatCount(row.turn_count),
  },
  {
    id: "evidence",
    header: "Evidence",
    width: "8rem", // the meter plus "0/18468" on a session of tens of thousands of turns
    cell: (row) =>
      row.evidence ? (
        <CoverageMeter
          withChain={row.evidence.turns_with_chain}
          total={row.evidence.indexed_turns}
          status={row.evidence.status}
          label={`Evidence coverage of ${row.session_ref}`}
        />
      ) : (
        <span className="text-faint">—</span>
      ),
  },
  {
    id: "risk",
    header: "Risk",
    sortKey: "reset_count",
    width: "9.5rem", // the badge ("HIGH RISK · 3887") plus the cell padding; narrower clips it to an ellipsis
    cell: (row) => <RiskBadge level={row.risk_level} resets={row.reset_count} pending={row.riskPending} />,
  },
  {
    id: "first_user_message",
    header: "First user message",
    width: "minmax(12rem, 1fr)", // the rest; every column fits a 1280 px window
    cell: (row) =>
      row.first_user_message ? (
        // lib/format's one line: no terminal sequence, control and bidi characters as escapes (issue 35);
        // a block, so the cell's ellipsis clips it at the column's width.
        <span className="block truncate" title={oneLine(row.first_user_message, 1000)}>
          {oneLine(row.first_user_message, MESSAGE_CLIP)}
        </span>
      ) : (
        <span className="text-faint">—</span>
      ),
  },
  {
    id: "subagents",
    header: "Subagents",
    sortKey: "subagent_count",
    width: "6.5rem",
    align: "right",
    cell: (row) => (row.subagent_count ? formatCount(row.subagent_count) : <span className="text-faint">0</span>),
  },
  {
    id: "size",
    header: "Size",
    sortKey: "size_bytes",
    width: "6rem",
    align: "right",
    cell: (row) => formatBytes(row.size_bytes),
  },
  {
    id: "output_tokens",
    header: "Out tokens",
    sortKey: "output_tokens",
    width: "7rem", // "12,609,345": a gigabyte session's count
    align: "right",
    cell: (row) => (row.output_tokens === null ? <span className="text-faint" title="unknown">—</span> : formatCount(row.output_tokens)),
  },
  {
    id: "cost_usd",
    header: "Cost",
    sortKey: "cost_usd",
    width: "6rem",
    align: "right",
    cell: (row) => (row.total_tokens === null ? <span className="text-faint" title="no usage recorded">—</span> : <span title={`${formatCount(row.total_tokens)} tokens`}>{formatUsd(row.cost_usd)}</span>),
  },
];
