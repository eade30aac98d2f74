"use client";

import { keepPreviousData, useQueries, useQuery } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, useRef } from "react";

import { formatCount } from "@/components/format/format";
import { useVirtualRowCount } from "@/components/hooks/use-hydrated";
import { fetchJson, toSearchParams } from "@/components/query/fetch-json";
import { Badge, type BadgeTone } from "@/components/viewer/badge";
import type { ReconstructSessionResult, TimelineRow } from "@/lib/forensics/schema";

import { fileLineHref } from "./finding-link";
import { spansDays, type TimelineTime, timelineTime, utcDay } from "./timeline-time";

/** Rows per request (well within reconstruct_session's 5000). */
const PAGE_ROWS = 200;
/** Fixed row heights (px): no measuring, so 1,000,000 rows scroll and deep-link exactly. */
const ROW_HEIGHT = { compact: 28, full: 64 } as const;
const OVERSCAN = 12;
/** Rows the virtualizer is told of before hydration (see useVirtualRowCount): one page. */
const PRE_HYDRATION_ROWS = PAGE_ROWS;
const SOURCES = ["main", "subagent", "tool_result", "audit"] as const;
const SOURCE_TONE: Record<string, BadgeTone> = { main: "neutral", subagent: "accent", tool_result: "warn", audit: "ok" };

export type TimelineFilters = { verbosity: "compact" | "full"; source: string | null; type: string | null; row: number | null };

type TimelineViewProps = {
  projectKey: string;
  sessionRef: string;
  eventTypes: Record<string, number>;
  filters: TimelineFilters;
  /** The session's first and last record times (its overview's): over more than one day, every row shows its date. */
  span?: { startedAt: string | null; endedAt: string | null };
};

const pageQuery = (projectKey: string, sessionRef: string, f: TimelineFilters, page: number) => ({
  queryKey: ["timeline", projectKey, sessionRef, f.verbosity, f.source ?? "", f.type ?? "", page] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    fetchJson<ReconstructSessionResult>(
      `/api/projects/${encodeURIComponent(projectKey)}/sessions/${encodeURIComponent(sessionRef)}/timeline?${toSearchParams({
        offset: page * PAGE_ROWS,
        limit: PAGE_ROWS,
        verbosity: f.verbosity,
        // The reviewer's own reader shows prompts as the transcript does (issue 29: a prompt's row read "User message.").
        include_prompts: "true",
        include_headlines: "true",
        source: f.source,
        event_type: f.type,
      })}`,
      { signal },
    ),
  staleTime: 60_000,
});

/**
 * The session's merged timeline (reconstruct_session), virtualized with fixed row heights and
 * fetched page by page as rows scroll in. Filters and the selected row live in the URL
 * (`?verbosity&source&type&row`), so a view is deep-linkable; a row's file:line opens the
 * viewer at that line, and the row is recorded first so Back returns to it. Times are UTC, with
 * dates when the session spans days; a row that starts a new day is marked.
 */
export function TimelineView({ projectKey, sessionRef, eventTypes, filters, span }: TimelineViewProps) {
  const router = useRouter();
  const pathname = usePathname();
  const scrollRef = useRef<HTMLDivElement>(null);
  const first = useQuery({ ...pageQuery(projectKey, sessionRef, filters, 0), placeholderData: keepPreviousData });
  const count = first.data?.event_count ?? 0;
  const height = ROW_HEIGHT[filters.verbosity];

  // Rows past a first screen are not measured before hydration (useVirtualRowCount); the list keeps its height.
  const rowCount = useVirtualRowCount(count, PRE_HYDRATION_ROWS);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({ count: rowCount, getScrollElement: () => scrollRef.current, estimateSize: () => height, overscan: OVERSCAN, useFlushSync: false });
  const items = virtualizer.getVirtualItems();
  const pages = new Set<number>();
  for (const item of items) pages.add(Math.floor(item.index / PAGE_ROWS));
  const pageList = [...pages];
  const results = useQueries({ queries: pageList.map((p) => pageQuery(projectKey, sessionRef, filters, p)) });
  const byPage = new Map(pageList.map((p, i) => [p, results[i]!.data]));
  const eventAt = (index: number) => {
    const data = byPage.get(Math.floor(index / PAGE_ROWS));
    return data?.timeline[index - data.offset];
  };
  // Dates show when the session spans days, or when the rows on screen do (a span left unknown).
  const multiDay = spansDays(span?.startedAt, span?.endedAt) || new Set(items.map((item) => utcDay(eventAt(item.index)?.timestamp)).filter((d) => d !== null)).size > 1;

  const href = (next: Partial<TimelineFilters>) => {
    const f = { ...filters, ...next };
    const qs = toSearchParams({ verbosity: f.verbosity === "compact" ? undefined : f.verbosity, source: f.source, type: f.type, row: f.row ?? undefined });
    return qs ? `${pathname}?${qs}` : pathname;
  };
  const setFilters = (next: Partial<TimelineFilters>) => router.replace(href({ ...next, row: null }), { scroll: false });

  const row = filters.row;
  useEffect(() => {
    // Once the virtualizer knows every row (after hydration).
    if (row !== null && rowCount === count && count > row) virtualizer.scrollToIndex(row, { align: "center" });
  }, [row, count, rowCount, virtualizer]);

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex shrink-0 flex-wrap items-center gap-x-4 gap-y-1 border-b border-line bg-surface px-4 py-1.5 text-xs">
        <div role="group" aria-label="Verbosity" className="inline-flex overflow-hidden rounded border border-line-strong">
          {(["compact", "full"] as const).map((v) => (
            <button
              key={v}
              type="button"
              aria-pressed={filters.verbosity === v}
              onClick={() => setFilters({ verbosity: v })}
              className="h-6 px-2.5 capitalize aria-pressed:bg-ink aria-pressed:text-white not-aria-pressed:hover:bg-canvas"
            >
              {v}
            </button>
          ))}
        </div>
        <label className="flex items-center gap-1.5 text-muted">
          Source
          <select aria-label="Source" value={filters.source ?? ""} onChange={(e) => setFilters({ source: e.target.value || null })} className="h-6 rounded border border-line-strong bg-surface px-1 text-ink">
            <option value="">all</option>
            {SOURCES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-1.5 text-muted">
          Event
          <select aria-label="Event type" value={filters.type ?? ""} onChange={(e) => setFilters({ type: e.target.value || null })} className="h-6 rounded border border-line-strong bg-surface px-1 text-ink">
            <option value="">all</option>
            {Object.entries(eventTypes).map(([t, n]) => (
              <option key={t} value={t}>
                {t} ({formatCount(n)})
              </option>
            ))}
          </select>
        </label>
        <span data-testid="timeline-count" className="text-muted">
          {first.isPending ? "Loading…" : first.isError ? first.error.message : `${formatCount(count)} events`}
        </span>
        {/* An agent whose lines carry their run's start, not their own time (issue 38): the times column says so. */}
        {first.data?.time_note && (
          <span data-testid="timeline-time-note" className="text-muted">
            {first.data.time_note}
          </span>
        )}
      </div>
      <div ref={scrollRef} role="region" aria-label="Timeline" tabIndex={0} className="min-h-0 flex-1 overflow-auto bg-surface">
        <div role="list" aria-label="Timeline events" className="relative w-full" style={{ height: virtualizer.getTotalSize() + (count - rowCount) * height }}>
          {items.map((item) => {
            const event = eventAt(item.index);
            const time = event ? timelineTime(event.timestamp, item.index > 0 ? (eventAt(item.index - 1)?.timestamp ?? undefined) : undefined, multiDay) : null;
            return (
              <div
                key={item.key}
                role="listitem"
                data-index={item.index}
                data-source={event?.source}
                data-day-start={time?.dayStart || undefined}
                aria-current={row === item.index ? "true" : undefined}
                className="absolute inset-x-0 overflow-hidden border-b border-line/60 px-4 aria-[current=true]:bg-highlight data-day-start:border-t-2 data-day-start:border-t-accent/50"
                style={{ top: item.start, height }}
              >
                {event && time ? (
                  <Row
                    event={event}
                    time={time}
                    wideTime={multiDay}
                    full={filters.verbosity === "full"}
                    href={fileLineHref(projectKey, sessionRef, event.source, event.file, event.line)}
                    onOpen={() => window.history.replaceState(null, "", href({ row: item.index }))}
                  />
                ) : (
                  <span className="text-2xs leading-7 text-faint">{item.index + 1} · loading…</span>
                )}
              </div>
            );
          })}
        </div>
        {count === 0 && !first.isPending && <p className="p-6 text-center text-muted">No events match these filters.</p>}
      </div>
    </div>
  );
}

type RowProps = { event: TimelineRow; time: TimelineTime; wideTime: boolean; full: boolean; href: string | null; onOpen: () => void };

function Row({ event, time, wideTime, full, href, onOpen }: RowProps) {
  const p = event.payload;
  const tools = Array.isArray(p.tools) ? (p.tools as string[]) : Array.isArray(p.tool_uses) ? (p.tool_uses as { name: string }[]).map((t) => t.name) : [];
  const text = typeof p.text === "string" ? p.text : typeof p.preview === "string" ? p.preview : null;
  const location = `${event.source === "main" ? "" : `${event.agent_id ?? event.file.replace(/^.*\//, "")}:`}L${event.line}`;
  return (
    <div className="flex h-full flex-col justify-center gap-0.5 text-xs">
      <div className="flex min-w-0 items-center gap-2">
        {/* Below 40rem only the index, the event and what it did (issue 29: at 480 px the fixed columns left no room for the headline). */}
        <span className="w-8 shrink-0 text-right font-mono text-2xs text-faint sm:w-14">{event.index + 1}</span>
        <span
          data-testid="timeline-time"
          className={`hidden shrink-0 font-mono text-2xs text-muted sm:block ${wideTime ? "w-36" : "w-20"} ${time.dayStart ? "font-semibold text-ink" : ""}`}
          title={event.timestamp ? `${event.timestamp}${time.dayStart ? " · a new day" : ""}` : "no timestamp"}
        >
          {time.text}
        </span>
        <span className="hidden w-20 shrink-0 sm:block">
          <Badge tone={SOURCE_TONE[event.source] ?? "neutral"}>{event.source}</Badge>
        </span>
        <span className="w-28 shrink-0 truncate font-mono sm:w-36">{event.event_type}</span>
        <span className="hidden w-16 shrink-0 text-muted md:block">{event.actor}</span>
        <span className="hidden w-12 shrink-0 font-mono text-2xs text-muted md:block">{event.turn_ref ?? ""}</span>
        <span data-testid="timeline-headline" className="min-w-0 flex-1 truncate text-ink/80" title={typeof p.headline === "string" ? p.headline : undefined}>
          {typeof p.headline === "string" ? p.headline : tools.length > 0 ? tools.join(", ") : typeof p.summary === "string" ? p.summary : ""}
        </span>
        {href ? (
          // A document navigation, not a client one: the viewer then opens at its `#L<n>` like a
          // pasted link, and Back reloads this page at `?row=` (recorded by onOpen).
          <a href={href} onClick={onOpen} className="shrink-0 font-mono text-2xs text-accent hover:underline" title={`${event.file}:${event.line}`}>
            {location}
          </a>
        ) : (
          <span className="shrink-0 font-mono text-2xs text-muted" title={event.file}>
            {location}
          </span>
        )}
      </div>
      {full && text && <p className="line-clamp-2 pl-[5.5rem] font-mono text-2xs whitespace-pre-wrap text-ink">{text}</p>}
    </div>
  );
}
