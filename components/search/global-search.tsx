import { SOURCE_LABELS, TRANSCRIPT_SOURCES } from "@/lib/sources/common/schema";
import Link from "next/link";

import { formatCount, plural } from "@/components/format/format";
import { routes } from "@/components/navigation/routes";
import { QuerySyntaxHelp } from "@/components/search/query-syntax-help";
import { SearchHitGroups } from "@/components/search/search-hit-groups";
import type { SearchSessionsResult } from "@/lib/catalog/schema";

/** The filters of the global search page, as typed in its URL (strings; empty when unset). `machine`: the search's `machine:` filter (issue 39). */
export type GlobalSearchParams = { q: string; project_key: string; source: string; since: string; until: string; file: string; tool: string; has_error: string; machine?: string; offset: number };

/** Hits per page of the global search page. */
export const GLOBAL_SEARCH_PAGE = 20;

const field = "h-8 rounded border border-line-strong bg-surface px-2 text-sm";

/**
 * The global search page (issues 25, 37): a GET form with the query (the query language, its
 * syntax one click away) and the filters (project, source, since/until, file touched, tool used,
 * errors, and the machine when the workspace's sessions come from two or more `machines`), and the
 * hits grouped by session, each opening the viewer at its line with the match marked. Says when
 * the index is still being filled and when candidates were left unchecked. Works without scripts.
 */
export function GlobalSearch({
  params,
  result,
  machines = [],
}: {
  params: GlobalSearchParams;
  result: SearchSessionsResult | { status: "invalid"; errors: { field: string; message: string; hint?: string }[] } | null;
  machines?: readonly string[];
}) {
  const machine = params.machine ?? "";
  // A chosen machine stays listed (a shared link to a machine the list no longer has).
  const machineOptions = machine && !machines.includes(machine) ? [...machines, machine] : machines;
  const pageParams = (offset: number) => ({ ...Object.fromEntries(Object.entries(params).filter(([k]) => k !== "offset").map(([k, v]) => [k, String(v)])), offset: String(offset) });
  return (
    <div className="mx-auto flex w-full max-w-6xl min-h-0 flex-1 flex-col gap-3 overflow-auto p-4">
      <h1 className="text-lg font-semibold">Search all sessions</h1>
      <form role="search" method="get" action={routes.searchAll()} className="flex flex-col gap-2">
        <div className="flex items-center gap-2">
          <input name="q" type="search" defaultValue={params.q} aria-label="Search query" placeholder='words, "a phrase", -word, tool:Bash, is:error…' className={`${field} min-w-0 flex-1`} />
          <button type="submit" className="h-8 rounded border border-line-strong bg-surface px-3 text-sm hover:bg-canvas">
            Search
          </button>
        </div>
        {/* Two columns on a phone (the file and tool filters across both), one wrapping row from 640 px: every placeholder whole at 480 px and at 1440 px (issue 29). */}
        <fieldset className="grid grid-cols-2 items-center gap-2 text-xs text-muted sm:flex sm:flex-wrap">
          <legend className="sr-only">Filters</legend>
          <input name="project_key" defaultValue={params.project_key} aria-label="Project key" placeholder="project_key" className={`${field} w-full min-w-0 font-mono sm:w-48`} />
          <select name="source" defaultValue={params.source} aria-label="Source" className={`${field} w-full min-w-0 sm:w-auto`}>
            <option value="">any source</option>
            {TRANSCRIPT_SOURCES.map((s) => (
              <option key={s} value={s}>
                {SOURCE_LABELS[s]}
              </option>
            ))}
          </select>
          <label className="flex min-w-0 items-center gap-1">
            since <input name="since" type="date" defaultValue={params.since} aria-label="Since" className={`${field} min-w-0 flex-1`} />
          </label>
          <label className="flex min-w-0 items-center gap-1">
            until <input name="until" type="date" defaultValue={params.until} aria-label="Until" className={`${field} min-w-0 flex-1`} />
          </label>
          <input name="file" defaultValue={params.file} aria-label="File touched" placeholder="file touched, e.g. src/auth.ts" title="Only sessions whose tools named a path containing this" className={`${field} col-span-2 w-full min-w-0 font-mono sm:w-80`} />
          <input name="tool" defaultValue={params.tool} aria-label="Tool used" placeholder="tool used, e.g. WebFetch" title="Only sessions that used this tool" className={`${field} col-span-2 w-full min-w-0 font-mono sm:w-64`} />
          <select name="has_error" defaultValue={params.has_error} aria-label="Tool errors" className={`${field} col-span-2 w-full min-w-0 sm:w-auto`}>
            <option value="">errors or not</option>
            <option value="true">sessions with tool errors</option>
            <option value="false">sessions without tool errors</option>
          </select>
          {machineOptions.length > 1 || machine ? (
            <label className="col-span-2 flex min-w-0 items-center gap-1">
              machine
              <select name="machine" defaultValue={machine} aria-label="Machine" title="Only sessions from this machine (the query's machine:NAME)" className={`${field} min-w-0 flex-1 sm:flex-none`}>
                <option value="">any machine</option>
                {machineOptions.map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
        </fieldset>
      </form>
      <QuerySyntaxHelp />
      {result === null ? (
        <p className="text-sm text-muted">Type a word, a &quot;phrase&quot; or a filter: every session of every project is searched (text, thinking, tool inputs and results, subagents).</p>
      ) : result.status === "invalid" ? (
        <ul role="alert" className="flex flex-col gap-0.5 rounded border border-danger/40 px-3 py-2 text-sm text-danger">
          {result.errors.map((e, i) => (
            <li key={i}>
              {e.field}: {e.message}
              {e.hint && <span className="block text-xs text-muted">{e.hint}</span>}
            </li>
          ))}
        </ul>
      ) : (
        <>
          {result.status === "indexing" && (
            <p role="status" className="rounded border border-line bg-canvas px-3 py-2 text-sm text-ink">
              Still indexing: {formatCount(result.coverage.sessions_indexed)} of {formatCount(result.coverage.sessions_total)} sessions are searchable so far, and the results below cover those. The rest is being indexed in the background; this page updates when it is done.
            </p>
          )}
          {result.coverage.lines_unchecked > 0 && (
            <p role="status" className="rounded border border-warn/40 bg-canvas px-3 py-2 text-sm text-ink">
              Not every candidate was checked: {plural(result.coverage.lines_unchecked, "line")} that may match {result.coverage.lines_unchecked === 1 ? "was" : "were"} left unread, so there may be more hits than shown. Add a word or a filter to narrow the search.
            </p>
          )}
          <p data-testid="search-summary" className="text-sm text-muted" aria-live="polite">
            {result.total === 0 ? "No matches." : `${plural(result.sessions, "session")}, ${plural(result.total, "line")}; showing lines ${formatCount(result.offset + 1)}–${formatCount(result.offset + result.hits.length)}.`}
          </p>
          <SearchHitGroups hits={result.hits} query={result.query} />
          <nav aria-label="Result pages" className="flex gap-3 text-sm">
            {result.offset > 0 && (
              <Link href={routes.searchAll(pageParams(Math.max(0, result.offset - GLOBAL_SEARCH_PAGE)))} className="text-accent hover:underline">
                Previous
              </Link>
            )}
            {result.offset + result.hits.length < result.total && (
              <Link href={routes.searchAll(pageParams(result.offset + GLOBAL_SEARCH_PAGE))} className="text-accent hover:underline">
                Next
              </Link>
            )}
          </nav>
        </>
      )}
    </div>
  );
}
