import Link from "next/link";

import { formatCount, plural } from "@/components/format/format";
import { routes } from "@/components/navigation/routes";
import type { SessionCounts } from "@/lib/forensics/schema";
import type { AnalyzeSessionResult } from "@/lib/analysis/schema";

import { chartPoints, chartResets } from "./chart-points";
import { MoreRows, ReadsTable, ResetsTable, TABLE_ROWS } from "./analysis-tables";
import { RiskBadge } from "./risk-badge";
import { TokenChart } from "./token-chart";

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col">
      <dt className="text-2xs uppercase tracking-wide text-muted">{label}</dt>
      <dd className="text-sm tabular-nums">{children}</dd>
    </div>
  );
}

/**
 * The Analysis view of one session (seed 003): risk, token chart with resets, resets and reads
 * tables. A long session's chart series and reset markers are thinned here, on the server
 * ({@link chartPoints}, {@link chartResets}), and its tables show their first {@link TABLE_ROWS}
 * rows unless `showAllRows` (`?rows=all`).
 */
export function AnalysisView({ analysis: a, lineCount, showAllRows = false, counts }: { analysis: AnalyzeSessionResult; lineCount: number; showAllRows?: boolean; counts?: SessionCounts }) {
  const viewer = routes.session(a.project_key, a.session_ref);
  const allRows = `${routes.analysis(a.project_key, a.session_ref)}?rows=all`;
  const cut = <T,>(rows: readonly T[]): readonly T[] => (showAllRows ? rows : rows.slice(0, TABLE_ROWS));
  const reads = Array.isArray(a.reads) ? a.reads : null;
  const persistence = "persisted_reads" in a.persistence ? a.persistence : null;
  const resetBeforeUse = reads?.filter((r) => r.reset_before_use_line !== null).length ?? 0;
  const marked = chartResets(a.resets, lineCount);
  return (
    <div className="flex flex-col gap-5">
      <dl className="flex flex-wrap items-end gap-x-8 gap-y-3 rounded border border-line bg-surface px-4 py-3">
        <Fact label="Risk">
          <RiskBadge level={a.risk_level} resets={a.reset_count} />
        </Fact>
        <Fact label="Context resets">{formatCount(a.reset_count)} (threshold {formatCount(a.threshold)})</Fact>
        {counts && (
          <Fact label="Files read (session)">
            <span data-testid="analysis-files-read" data-files-read={counts.files_read.total}>
              {formatCount(counts.files_read.total)} ({formatCount(counts.files_read.main)} main, {formatCount(counts.files_read.subagents)} subagents{counts.reads_failed > 0 ? `; ${formatCount(counts.reads_failed)} failed` : ""})
            </span>
          </Fact>
        )}
        <Fact label="Read calls (main transcript)">{reads ? `${plural(reads.length, "read")} in ${plural(a.read_batches, "batch", "batches")}` : <span className="text-muted" title={"reason" in a.reads ? a.reads.reason : ""}>n/a</span>}</Fact>
        <Fact label="Persisted / inline">{persistence ? `${persistence.persisted_reads.length} / ${persistence.inline_reads.length}` : <span className="text-muted">n/a</span>}</Fact>
        <Fact label="Reset before use">{reads ? formatCount(resetBeforeUse) : <span className="text-muted">n/a</span>}</Fact>
        <Fact label="Workscope ID">{a.workscope_id ? <span className="font-mono">{a.workscope_id}</span> : <span className="text-faint">none</span>}</Fact>
        <Fact label="Chat export">
          {a.export ? (
            <Link href={routes.chatExport(a.project_key, a.session_ref)} className="text-accent hover:underline">
              {a.export.file_name}
            </Link>
          ) : (
            <span className="text-faint">none paired</span>
          )}
        </Fact>
        {reads && (
          <Fact label="Side files">
            {a.has_subagents ? "subagents" : "no subagents"} · {a.has_tool_results ? "tool-results/" : "no tool-results/"}
          </Fact>
        )}
      </dl>
      {a.token_notes.length > 0 && (
        <ul className="text-xs text-muted">
          {a.token_notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
      <section aria-labelledby="chart-h" className="flex flex-col gap-2">
        <h2 id="chart-h" className="text-sm font-semibold">
          Tokens over the session <span className="font-normal text-muted">— click a point or a red reset marker to open the transcript there</span>
        </h2>
        <TokenChart points={chartPoints(a.token_points, new Set(marked.map((r) => r.session_line)))} resets={marked} lineCount={lineCount} viewerHref={viewer} noCacheCreation={a.token_points.some((p) => p.cache_creation === null)} />
        {marked.length < a.resets.length && (
          <p data-testid="markers-thinned" className="text-xs text-muted">
            {formatCount(marked.length)} of {formatCount(a.resets.length)} resets are marked: the largest drop in each stretch of about {formatCount(Math.round(lineCount / marked.length))} lines. The table below lists every one.
          </p>
        )}
      </section>
      <section aria-labelledby="resets-h" className="flex flex-col gap-2">
        <h2 id="resets-h" className="text-sm font-semibold">
          Context resets
        </h2>
        <ResetsTable resets={cut(a.resets)} lineHref={viewer} />
        <MoreRows shown={cut(a.resets).length} total={a.resets.length} allHref={allRows} />
      </section>
      <section aria-labelledby="reads-h" className="flex flex-col gap-2">
        <h2 id="reads-h" className="text-sm font-semibold">
          File reads
        </h2>
        {reads ? <ReadsTable reads={cut(reads)} lineHref={viewer} /> : <p className="text-sm text-muted">{"reason" in a.reads ? a.reads.reason : ""}</p>}
        {reads && <MoreRows shown={cut(reads).length} total={reads.length} allHref={allRows} />}
        {persistence && persistence.persisted_non_reads.length > 0 && (
          <p className="text-xs text-muted">
            Also persisted (not reads): {cut(persistence.persisted_non_reads).map((p) => `${p.tool_name ?? "unknown tool"} ${p.tool_use_id}`).join(", ")}
            {cut(persistence.persisted_non_reads).length < persistence.persisted_non_reads.length && ` and ${formatCount(persistence.persisted_non_reads.length - TABLE_ROWS)} more`}
          </p>
        )}
        <p className="text-xs text-muted">
          {reads
            ? `Phantom-read markers (a tool result that starts with <persisted-output> or [Old tool result content cleared]): ${formatCount(a.markers.length)}. Lines that only mention them in the conversation: ${formatCount(a.marker_mentions_in_conversation)} (discussion, not counted).`
            : "Phantom-read markers: not looked for, this source has no tool results of that kind."}
        </p>
      </section>
    </div>
  );
}
