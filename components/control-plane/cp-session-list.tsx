import Link from "next/link";

import { formatDuration, formatLocalDateTime } from "@/components/format/format";
import { routes } from "@/components/navigation/routes";
import type { CpSessionRow } from "@/lib/sources/control-plane/schema";

const STATUS_CLASS: Record<CpSessionRow["status"], string> = { completed: "bg-ok-soft text-ok", active: "bg-accent-soft text-accent", errored: "bg-danger-soft text-danger" };

/** Sessions of a Control Plane project (seed 004 `list_sessions` rows from ho2m). */
export function CpSessionList({ projectKey, sessions }: { projectKey: string; sessions: CpSessionRow[] }) {
  if (sessions.length === 0) {
    return <p className="rounded border border-line bg-surface px-3 py-4 text-sm text-muted">No sessions: this root has no SESSION_START in HO2/ledger/ho2m.jsonl.</p>;
  }
  return (
    <table className="w-full rounded border border-line bg-surface text-left text-sm" aria-label="Control Plane sessions">
      <thead className="border-b border-line-strong text-2xs tracking-wide text-muted uppercase">
        <tr>
          <th scope="col" className="px-3 py-2 font-semibold">Session</th>
          <th scope="col" className="px-3 py-2 font-semibold">Status</th>
          <th scope="col" className="px-3 py-2 font-semibold">Started</th>
          <th scope="col" className="px-3 py-2 text-right font-semibold">Duration</th>
          <th scope="col" className="px-3 py-2 text-right font-semibold">Turns</th>
          <th scope="col" className="px-3 py-2 font-semibold">First message</th>
        </tr>
      </thead>
      <tbody>
        {sessions.map((s) => (
          <tr key={s.session_id} className="border-b border-line/70 last:border-0 hover:bg-accent-soft/60">
            <td className="px-3 py-2 font-mono text-xs">
              <Link href={routes.session(projectKey, s.session_id)} className="text-accent hover:underline">
                {s.session_id}
              </Link>
            </td>
            <td className="px-3 py-2">
              <span className={`rounded px-1.5 py-0.5 text-2xs font-semibold ${STATUS_CLASS[s.status]}`}>{s.status}</span>
            </td>
            <td className="px-3 py-2 text-xs tabular-nums">{formatLocalDateTime(s.started_at)}</td>
            <td className="px-3 py-2 text-right text-xs tabular-nums">{formatDuration(s.duration_seconds)}</td>
            <td className="px-3 py-2 text-right tabular-nums">{s.turn_count}</td>
            <td className="max-w-md truncate px-3 py-2 text-xs text-muted">{s.first_user_message ?? "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
