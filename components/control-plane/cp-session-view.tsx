import Link from "next/link";

import { formatLocalDateTime } from "@/components/format/format";
import { Breadcrumb } from "@/components/navigation/breadcrumb";
import { routes } from "@/components/navigation/routes";
import type { ControlPlaneProject, CpReconstructResult, CpSessionOverview } from "@/lib/sources/control-plane/schema";

type Props = {
  project: ControlPlaneProject;
  overview: CpSessionOverview;
  timeline: CpReconstructResult;
  verbosity: "compact" | "full";
};

const SOURCE_CLASS: Record<string, string> = { ho2m: "bg-accent-soft text-accent", ho1m: "bg-ok-soft text-ok", governance: "bg-warn-soft text-warn" };

/**
 * A Control Plane session: seed 004's `session_overview` (the `about` paragraph first, then
 * diagnostics) and the `reconstruct_session` Timeline merged from ho2m, ho1m and governance.
 * Each timeline row links to its line in the ledger viewer.
 */
export function CpSessionView({ project, overview, timeline, verbosity }: Props) {
  const { summary, diagnostics } = overview;
  const base = routes.session(project.project_key, summary.session_id);
  const page = (offset: number, v = verbosity) => `${base}?offset=${offset}&verbosity=${v}#timeline`;
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-4 overflow-auto p-6">
      <header className="flex flex-col gap-1">
        <Breadcrumb project={project} />
        <div className="flex flex-wrap items-baseline gap-x-3">
          <h1 className="font-mono text-lg font-semibold">{summary.session_id}</h1>
          <span className="text-xs text-muted">
            {summary.status} · {summary.turn_count} turns · {formatLocalDateTime(summary.started_at)}
            {summary.duration ? ` · ${summary.duration}` : ""}
          </span>
        </div>
      </header>

      <section aria-labelledby="cp-overview" className="flex flex-col gap-2 rounded border border-line bg-surface p-4">
        <h2 id="cp-overview" className="text-sm font-semibold">
          Overview
        </h2>
        <p data-testid="session-about" className="text-sm leading-relaxed">
          {summary.about}
        </p>
        {summary.top_user_messages.length > 0 ? (
          <ol className="list-decimal pl-5 text-xs text-muted">
            {summary.top_user_messages.map((m, i) => (
              <li key={i}>{m}</li>
            ))}
          </ol>
        ) : null}
        {[...summary.errors.map((e) => ({ ...e, level: "error" })), ...summary.warnings.map((w) => ({ ...w, level: "warning" }))].map((issue, i) => (
          <p key={i} className={`text-xs ${issue.level === "error" ? "text-danger" : "text-warn"}`}>
            {issue.level}: {issue.type} — {issue.message} ({issue.source})
          </p>
        ))}
        <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-xs sm:grid-cols-5" data-testid="session-diagnostics">
          <Fact label="Tokens" value={`${diagnostics.tokens.grand_total} (${diagnostics.tokens.input_total} in / ${diagnostics.tokens.output_total} out)`} />
          <Fact label="Work orders" value={`${diagnostics.work_orders.total} · ${entries(diagnostics.work_orders.by_state)}`} />
          <Fact label="Tools" value={`${diagnostics.tools.total_calls} · ${Object.entries(diagnostics.tools.by_tool).map(([k, v]) => `${k} ${v.succeeded}/${v.called}`).join(", ") || "none"}`} />
          <Fact label="Quality gates" value={`${diagnostics.quality_gates.passed} passed · ${diagnostics.quality_gates.rejected} rejected`} />
          <Fact label="Ledger events" value={entries(diagnostics.ledger_events)} />
        </dl>
      </section>

      <section id="timeline" aria-labelledby="cp-timeline" className="flex flex-col gap-2">
        <div className="flex flex-wrap items-baseline gap-3">
          <h2 id="cp-timeline" className="text-sm font-semibold">
            Timeline
          </h2>
          <span className="text-xs text-muted">
            events {timeline.offset + 1}–{timeline.offset + timeline.returned} of {timeline.event_count}
            {timeline.truncated ? " (cut at the size cap)" : ""}
          </span>
          <Link href={page(timeline.offset, verbosity === "compact" ? "full" : "compact")} className="text-xs text-accent hover:underline">
            {verbosity === "compact" ? "Show full payloads" : "Show compact"}
          </Link>
          {timeline.offset > 0 ? (
            <Link href={page(Math.max(0, timeline.offset - 200))} className="text-xs text-accent hover:underline">
              Previous
            </Link>
          ) : null}
          {timeline.offset + timeline.returned < timeline.event_count ? (
            <Link href={page(timeline.offset + timeline.returned)} className="text-xs text-accent hover:underline">
              Next
            </Link>
          ) : null}
        </div>
        <table className="w-full rounded border border-line bg-surface text-left text-xs" aria-label="Session timeline">
          <thead className="border-b border-line-strong text-2xs tracking-wide text-muted uppercase">
            <tr>
              <th scope="col" className="px-2 py-1.5 font-semibold">Time (UTC)</th>
              <th scope="col" className="px-2 py-1.5 font-semibold">Source</th>
              <th scope="col" className="px-2 py-1.5 font-semibold">Event</th>
              <th scope="col" className="px-2 py-1.5 font-semibold">Actor</th>
              <th scope="col" className="px-2 py-1.5 font-semibold">Turn / WO</th>
              <th scope="col" className="px-2 py-1.5 font-semibold">Payload</th>
            </tr>
          </thead>
          <tbody>
            {timeline.timeline.map((row) => (
              <tr key={`${row.source}:${row.file}:${row.line}`} data-testid="timeline-row" className="border-b border-line/70 align-top last:border-0">
                <td className="px-2 py-1 font-mono whitespace-nowrap tabular-nums">{row.timestamp?.slice(11, 23) ?? "—"}</td>
                <td className="px-2 py-1">
                  <span className={`rounded px-1 py-0.5 text-2xs font-semibold ${SOURCE_CLASS[row.source] ?? ""}`}>{row.source}</span>
                </td>
                <td className="px-2 py-1 font-mono">
                  <Link href={routes.ledger(project.project_key, row.source, { file: row.file, line: row.line })} className="text-accent hover:underline">
                    {row.event_type}
                  </Link>
                </td>
                <td className="px-2 py-1">{row.actor}</td>
                <td className="px-2 py-1 font-mono text-2xs text-muted">
                  {row.turn_number !== null ? `T${row.turn_number}` : ""}
                  {row.wo_id ? ` ${row.wo_id.replace(`WO-${summary.session_id}-`, "WO-")}` : ""}
                </td>
                <td className="max-w-xl px-2 py-1">
                  {/* Compact rows are clamped; full payloads (prompts, tool arguments) are shown whole. */}
                  <code className={`font-mono text-2xs break-all text-muted ${verbosity === "compact" ? "line-clamp-3" : "whitespace-pre-wrap"}`}>{JSON.stringify(row.payload)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex flex-col">
      <dt className="text-2xs tracking-wide text-muted uppercase">{label}</dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  );
}

const entries = (record: Record<string, number>) =>
  Object.entries(record)
    .map(([k, v]) => `${k} ${v}`)
    .join(" · ") || "none";
