import Link from "next/link";

import { formatLocalDateTime, plural } from "@/components/format/format";
import { routes } from "@/components/navigation/routes";
import { Snippet } from "@/components/search/snippet";
import type { SearchHit } from "@/lib/catalog/schema";
import { describeQuery, parseSearchQuery } from "@/lib/catalog/search-query";

type HitGroup = { key: string; first: SearchHit; hits: SearchHit[] };

/** The page's hits cut into runs of one session each (the tool returns a session's hits together, best session first). */
export function groupBySession(hits: readonly SearchHit[]): HitGroup[] {
  const groups: HitGroup[] = [];
  for (const hit of hits) {
    const key = `${hit.project_key}/${hit.session_ref}`;
    const last = groups.at(-1);
    if (last?.key === key) last.hits.push(hit);
    else groups.push({ key, first: hit, hits: [hit] });
  }
  return groups;
}

/**
 * The global search's hits grouped by session (issue 37): a header per session (its title, project
 * and ref, how many of its lines match), then its hits on this page, each opening the viewer at
 * its line with the query carried along, so the viewer marks the match.
 */
export function SearchHitGroups({ hits, query: canonical }: { hits: readonly SearchHit[]; query: string }) {
  const query = inSessionQuery(canonical);
  // Each session's machine (issue 39) when the page's sessions came from more than one.
  const machines = new Set(hits.map((h) => h.machine)).size > 1;
  return (
    <ol aria-label="Search results" className="flex flex-col gap-3">
      {groupBySession(hits).map(({ key, first, hits: lines }) => (
        <li key={key} aria-label={`${first.project_key} · ${first.session_ref}`} className="rounded-md border border-line bg-surface">
          <div className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5 border-b border-line bg-canvas px-3 py-1.5">
            <Link href={routes.session(first.project_key, first.session_ref)} className="line-clamp-2 min-w-0 flex-1 basis-80 text-sm font-medium wrap-anywhere text-ink hover:text-accent hover:underline" title={first.session_title ?? undefined}>
              {first.session_title?.trim() || "(untitled session)"}
            </Link>
            <span className="font-mono text-2xs text-muted">
              {first.project_key} · {first.session_ref}
              {machines ? ` · ${first.machine}` : ""}
            </span>
            <span className="text-2xs whitespace-nowrap text-muted">{plural(first.session_hits, "matching line")}</span>
          </div>
          <ul className="flex flex-col divide-y divide-line">
            {lines.map((hit) => (
              <HitRow key={`${hit.file.kind}:${hit.file.id ?? ""}:${hit.line_number}`} hit={hit} query={query} />
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}

function HitRow({ hit, query }: { hit: SearchHit; query: string }) {
  const { href, label } = whereToOpen(hit, query);
  return (
    <li className="flex flex-col gap-0.5 px-3 py-1.5">
      <div className="flex flex-wrap items-baseline gap-x-2 text-2xs text-muted">
        {href ? (
          <Link href={href} data-testid="search-hit" className="font-mono text-xs text-accent hover:underline">
            {label}
          </Link>
        ) : (
          <span data-testid="search-hit" className="font-mono text-xs text-ink">
            {label}
          </span>
        )}
        {hit.turn_ref && <span className="font-mono">{hit.turn_ref}</span>}
        {hit.time && (
          <time dateTime={hit.time} title={hit.time}>
            {formatLocalDateTime(hit.time)}
          </time>
        )}
        <span className="rounded bg-canvas px-1">{hit.role}</span>
      </div>
      <p className="font-mono text-xs break-all whitespace-pre-wrap text-ink">
        <Snippet text={hit.snippet} />
      </p>
    </li>
  );
}

/**
 * The query a hit carries to the viewer: the result's canonical query (the form's filters
 * included) without the filters the session itself answers (project, session, agent), which
 * would only crowd the viewer's search box.
 */
export function inSessionQuery(canonical: string): string {
  try {
    const parsed = parseSearchQuery(canonical);
    const local = describeQuery({ ...parsed, filters: { ...parsed.filters, project: [], session: [], agent: [], machine: [] } });
    return local.trim() === "" ? canonical : local;
  } catch {
    return canonical;
  }
}

/** Where a hit opens and what it is called: its line in the main or subagent transcript, or for a persisted tool result the line that calls it. */
function whereToOpen(hit: SearchHit, query: string): { href: string | null; label: string } {
  const { project_key: project, session_ref: session, file, line_number: line } = hit;
  if (file.kind === "subagent") return { href: routes.searchHit(project, session, line, query, file.id), label: `subagent ${file.id} · line ${line}` };
  if (file.kind === "tool_result") {
    const where = `tool result ${file.id ?? ""}`.trim();
    return file.call_line === null
      ? { href: null, label: `${where} · line ${line}` }
      : { href: routes.searchHit(project, session, file.call_line, query), label: `${where} · called at line ${file.call_line}` };
  }
  return { href: routes.searchHit(project, session, line, query), label: `line ${line}` };
}
