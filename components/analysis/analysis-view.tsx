import Link from "next/link";
import { Suspense } from "react";

import { formatCount, plural } from "@/components/format/format";
import { routes } from "@/components/navigation/routes";
import type { AnalysisSummary, TokenChartLoad } from "@/lib/analysis/schema";
import type { SessionCounts } from "@/lib/forensics/schema";

import { MoreRows, ReadsTable, ResetsTable } from "./analysis-tables";
import { RiskBadge } from "./risk-badge";
import { TokenChartPanel, TokenChartPlaceholder } from "./token-chart-panel";

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col">
      <dt className="text-2xs uppercase tracking-wide text-muted">{label}</dt>
      <dd className="text-sm tabular-nums">{children}</dd>
    </div>
  );
}

type Summary = AnalysisSummary & { project_key: string; session_ref: string };

type AnalysisViewProps = {
  projectKey: string;
  sessionRef: string;
  /** The session's summary (`read_analysis_summary`, tables cut to `TABLE_ROWS` unless `showAllRows`); awaited in its own Suspense boundaries. */
  summary: Promise<Summary>;
  /** The token chart's series (`read_token_chart`), streamed in its own Suspense boundary. */
  chart: Promise<TokenChartLoad>;
  /** The session's counts (files read), from its overview; null when unknown. */
  counts: Promise<SessionCounts | null>;
  showAllRows?: boolean;
};

/**
 * The Analysis view of one session (seed 003): risk and facts, token chart with resets, resets and
 * reads tables. Light by construction: the chart's compact series (~60 KB, {@link TokenChartPanel}),
 * the facts and the tables each stream in as they are ready, and the tables show their first
 * `TABLE_ROWS` rows unless `showAllRows` (`?rows=all`).
 */
export function AnalysisView({ projectKey, sessionRef, summary, chart, counts, showAllRows = false }: AnalysisViewProps) {
  return (
    <div className="flex flex-col gap-5">
      {/* The facts arrive after the chart: their placeholder keeps their height (two rows at desktop width), so the chart does not jump under the pointer. */}
      <Suspense fallback={<p className="min-h-28 rounded border border-line bg-surface px-4 py-3 text-sm text-muted">Analysing the session…</p>}>
        <AnalysisFacts summary={summary} counts={counts} />
      </Suspense>
      <section aria-labelledby="chart-h" className="flex flex-col gap-2">
        <h2 id="chart-h" className="text-sm font-semibold">
          Tokens over the session <span className="font-normal text-muted">— click a point or a red reset marker to open the transcript there</span>
        </h2>
        <Suspense fallback={<TokenChartPlaceholder />}>
          <TokenChartSection chart={chart} viewerHref={routes.session(projectKey, sessionRef)} />
        </Suspense>
      </section>
      <Suspense fallback={null}>
        <AnalysisTables summary={summary} showAllRows={showAllRows} />
      </Suspense>
    </div>
  );
}

/** The chart's series awaited here, on the server, so the client component gets them as plain props. */
async function TokenChartSection({ chart, viewerHref }: { chart: Promise<TokenChartLoad>; viewerHref: string }) {
  return <TokenChartPanel load={await chart} viewerHref={viewerHref} />;
}

async function AnalysisFacts({ summary, counts: countsPromise }: { summary: Promise<Summary>; counts: Promise<SessionCounts | null> }) {
  const [a, counts] = await Promise.all([summary, countsPromise]);
  const reads = "rows" in a.reads ? a.reads : null;
  const persistence = "persisted_reads" in a.persistence ? a.persistence : null;
  return (
    <>
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
        <Fact label="Read calls (main transcript)">{reads ? `${plural(reads.total, "read")} in ${plural(a.read_batches, "batch", "batches")}` : <span className="text-muted" title={"reason" in a.reads ? a.reads.reason : ""}>n/a</span>}</Fact>
        <Fact label="Persisted / inline">{persistence ? `${persistence.persisted_reads} / ${persistence.inline_reads}` : <span className="text-muted">n/a</span>}</Fact>
        <Fact label="Reset before use">{reads ? formatCount(reads.reset_before_use) : <span className="text-muted">n/a</span>}</Fact>
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
    </>
  );
}

async function AnalysisTables({ summary, showAllRows }: { summary: Promise<Summary>; showAllRows: boolean }) {
  const a = await summary;
  const viewer = routes.session(a.project_key, a.session_ref);
  const allRows = `${routes.analysis(a.project_key, a.session_ref)}?rows=all`;
  const reads = "rows" in a.reads ? a.reads : null;
  const persistence = "persisted_reads" in a.persistence ? a.persistence : null;
  return (
    <>
      <section aria-labelledby="resets-h" className="flex flex-col gap-2">
        <h2 id="resets-h" className="text-sm font-semibold">
          Context resets
        </h2>
        <ResetsTable resets={a.resets} lineHref={viewer} />
        {!showAllRows && <MoreRows shown={a.resets.length} total={a.reset_count} allHref={allRows} />}
      </section>
      <section aria-labelledby="reads-h" className="flex flex-col gap-2">
        <h2 id="reads-h" className="text-sm font-semibold">
          File reads
        </h2>
        {reads ? <ReadsTable reads={reads.rows} lineHref={viewer} /> : <p className="text-sm text-muted">{"reason" in a.reads ? a.reads.reason : ""}</p>}
        {reads && !showAllRows && <MoreRows shown={reads.rows.length} total={reads.total} allHref={allRows} />}
        {persistence && persistence.persisted_non_reads_total > 0 && (
          <p className="text-xs text-muted">
            Also persisted (not reads): {persistence.persisted_non_reads.map((p) => `${p.tool_name ?? "unknown tool"} ${p.tool_use_id}`).join(", ")}
            {persistence.persisted_non_reads.length < persistence.persisted_non_reads_total && ` and ${formatCount(persistence.persisted_non_reads_total - persistence.persisted_non_reads.length)} more`}
          </p>
        )}
        <p className="text-xs text-muted">
          {reads
            ? `Phantom-read markers (a tool result that starts with <persisted-output> or [Old tool result content cleared]): ${formatCount(a.marker_count)}. Lines that only mention them in the conversation: ${formatCount(a.marker_mentions_in_conversation)} (discussion, not counted).`
            : "Phantom-read markers: not looked for, this source has no tool results of that kind."}
        </p>
      </section>
    </>
  );
}
