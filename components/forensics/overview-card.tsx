import Link from "next/link";

import { formatCount, formatUsd } from "@/components/format/format";
import { Badge, type BadgeTone } from "@/components/viewer/badge";
import type { Finding, SessionOverviewResult } from "@/lib/forensics/schema";

import { fileLineHref } from "./finding-link";

const STATUS_TONE: Record<string, BadgeTone> = { completed: "ok", active: "accent", errored: "danger" };
const MAX_LISTED = 8;

/**
 * The session overview at the top of the session page (seed 004: the `about` paragraph first).
 * A closed `<details>` by default — one line of about, so the viewer keeps its room; opening it
 * shows the numbers, errors and warnings with links to their lines.
 */
export function OverviewCard({ overview }: { overview: SessionOverviewResult }) {
  const { summary: s, diagnostics: d } = overview;
  const tools = Object.entries(d.tools.by_tool).sort((a, b) => b[1].called - a[1].called || a[0].localeCompare(b[0]));
  return (
    <details data-testid="session-overview" className="group shrink-0 border-b border-line bg-canvas px-4 py-1.5 text-xs">
      <summary className="flex cursor-pointer list-none items-baseline gap-2">
        <Badge tone={STATUS_TONE[s.status] ?? "neutral"}>{s.status}</Badge>
        <p data-testid="session-about" className="min-w-0 flex-1 truncate group-open:whitespace-normal" title={s.about}>
          {s.about}
        </p>
        <span
          data-testid="session-usage"
          data-total-tokens={d.tokens.grand_total}
          data-cost-usd={d.tokens.cost_usd ?? ""}
          className="shrink-0 font-mono text-2xs text-muted"
          title={`${formatCount(d.tokens.grand_total)} tokens (input ${formatCount(d.tokens.input_total)}, output ${formatCount(d.tokens.output_total)}, cache creation ${formatCount(d.tokens.cache_creation_total)}, cache read ${formatCount(d.tokens.cache_read_total)}); subagents ${formatCount(d.tokens.subagents.total_tokens)}`}
        >
          {formatCount(d.tokens.grand_total)} tok · {formatUsd(d.tokens.cost_usd, d.tokens.unpriced_models.length > 0)}
        </span>
        <span className="shrink-0 text-2xs text-accent group-open:hidden">Details</span>
        <span className="hidden shrink-0 text-2xs text-accent group-open:inline">Hide</span>
      </summary>
      <div className="mt-2 grid gap-x-8 gap-y-2 pb-1 sm:grid-cols-2 xl:grid-cols-4">
        <Facts
          title="Session"
          rows={[
            ["Duration", s.duration ?? "—"],
            ["Turns", formatCount(s.turn_count)],
            ["Started", s.started_at ?? "—"],
            ["Ended", s.ended_at ?? "—"],
          ]}
        />
        <Facts
          title="Counts"
          rows={[
            ["Files read", `${formatCount(s.counts.files_read.total)} (${formatCount(s.counts.files_read.main)} main, ${formatCount(s.counts.files_read.subagents)} subagents)`],
            ["Reads failed", formatCount(s.counts.reads_failed)],
            ["Commands run", `${formatCount(s.counts.commands_run.total)}${s.counts.commands_failed ? ` (${formatCount(s.counts.commands_failed)} failed)` : ""}`],
            ["Errors", formatCount(s.counts.errors)],
          ]}
        />
        <Facts
          title="Tokens"
          rows={[
            ["Input", formatCount(d.tokens.input_total)],
            ["Output", formatCount(d.tokens.output_total)],
            ["Cache read", formatCount(d.tokens.cache_read_total)],
            ["Cache creation", formatCount(d.tokens.cache_creation_total)],
            ["Total", formatCount(d.tokens.grand_total)],
            ["Of which subagents", formatCount(d.tokens.subagents.total_tokens)],
            ["Cost", formatUsd(d.tokens.cost_usd, d.tokens.unpriced_models.length > 0)],
          ]}
        />
        <Facts
          title={`Tools · ${formatCount(d.tools.total_calls)} calls, ${formatCount(d.tools.failed_calls)} failed`}
          rows={tools.slice(0, MAX_LISTED).map(([name, c]) => [name, `${formatCount(c.called)}${c.failed ? ` (${formatCount(c.failed)} failed)` : ""}`])}
        />
        <Facts
          title="Events"
          rows={[
            ["Main", formatCount(d.events.main)],
            ["Subagents", `${formatCount(d.events.subagent)} in ${d.subagents.count} file${d.subagents.count === 1 ? "" : "s"}`],
            ["Tool results", formatCount(d.events.tool_result)],
            ["Audit", `${formatCount(d.events.audit)} (${formatCount(d.audit.calls)} call${d.audit.calls === 1 ? "" : "s"})`],
          ]}
        />
        {(s.errors.length > 0 || s.warnings.length > 0) && (
          <div className="sm:col-span-2 xl:col-span-4">
            <Findings projectKey={s.project_key} sessionRef={s.session_ref} label="Errors" tone="danger" items={s.errors} />
            <Findings projectKey={s.project_key} sessionRef={s.session_ref} label="Warnings" tone="warn" items={s.warnings} />
          </div>
        )}
      </div>
    </details>
  );
}

function Facts({ title, rows }: { title: string; rows: [string, string][] }) {
  return (
    <dl className="min-w-0">
      <dt className="mb-0.5 font-medium text-ink">{title}</dt>
      {rows.map(([k, v]) => (
        <dd key={k} className="flex justify-between gap-3 text-muted">
          <span className="truncate">{k}</span>
          <span className="font-mono text-ink">{v}</span>
        </dd>
      ))}
    </dl>
  );
}

function Findings({ projectKey, sessionRef, label, tone, items }: { projectKey: string; sessionRef: string; label: string; tone: BadgeTone; items: Finding[] }) {
  if (items.length === 0) return null;
  return (
    <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-0.5">
      <span className="font-medium">{label}</span>
      {items.slice(0, MAX_LISTED).map((f) => {
        const href = fileLineHref(projectKey, sessionRef, f.source, f.file, f.line);
        const text = `${f.type.replace(/_/g, " ")} · L${f.line}${f.source === "main" ? "" : ` (${f.source})`}`;
        return (
          <span key={`${f.file}:${f.line}:${f.type}`} title={f.message}>
            {href ? (
              <Link href={href} className="hover:underline">
                <Badge tone={tone}>{text}</Badge>
              </Link>
            ) : (
              <Badge tone={tone}>{text}</Badge>
            )}
          </span>
        );
      })}
      {items.length > MAX_LISTED && <span className="text-muted">+{items.length - MAX_LISTED} more</span>}
    </div>
  );
}
