import Link from "next/link";
import { Fragment } from "react";

import { formatCount } from "@/components/format/format";
import { routes } from "@/components/navigation/routes";
import { Badge } from "@/components/viewer/badge";
import { Breadcrumb } from "@/components/navigation/breadcrumb";
import type { GrepJsonlResult, SearchHitContext } from "@/lib/forensics/schema";
import { highlightRegex, matchSnippet, splitMatches } from "@/lib/format/text-match";

import { fileLineHref, sourceOfFile } from "./finding-link";

/** Characters of a matching line shown before the first match (about as many after). */
const CONTEXT_CHARS = 110;

type SearchPageResult = GrepJsonlResult | { status: "invalid"; errors: { field: string; message: string; hint: string }[] };

type ProjectSearchProps = {
  project: { project_key: string; project_label: string };
  q: string;
  offset: number;
  result: SearchPageResult | null;
  /** Titles and turns of the hits' sessions (null without hits). */
  context: SearchHitContext | null;
};

/**
 * The project-wide search page: a GET form (`?q=`) and its `grep_jsonl` matches, each with its
 * session's title, the turn holding the line and a readable snippet with the match marked
 * (issue 29), linking to the viewer at the line. Any search backend that returns `grep_jsonl`'s
 * entries can feed it.
 */
export function ProjectSearch({ project, q, offset, result, context }: ProjectSearchProps) {
  const projectKey = project.project_key;
  const regex = highlightRegex(q);
  return (
    <div className="mx-auto flex w-full max-w-6xl min-h-0 flex-1 flex-col gap-3 overflow-auto p-4">
      <Breadcrumb project={project} current="Search" />
      <form role="search" method="get" className="flex items-center gap-2">
        <input
          name="q"
          type="search"
          defaultValue={q}
          aria-label="Search every session of the project"
          placeholder={'Regular expression (RE2), e.g. "is_error":true'}
          className="h-8 flex-1 rounded border border-line-strong bg-surface px-2 font-mono text-sm"
        />
        <button type="submit" className="h-8 rounded border border-line-strong bg-surface px-3 text-sm hover:bg-canvas">
          Search
        </button>
      </form>
      {result?.status === "invalid" && (
        <p role="alert" className="rounded border border-danger/30 bg-danger-soft px-3 py-2 text-sm text-danger">
          {result.errors.map((e) => e.message).join("; ")}
        </p>
      )}
      {result?.status === "ok" && (
        <>
          <p data-testid="search-summary" className="text-xs text-muted">
            {formatCount(result.count)}
            {result.count_exact === false ? "+" : ""} matching line{result.count === 1 ? "" : "s"} in {formatCount(result.files_searched)} files
            {result.count > 0 && ` · showing ${offset + 1}–${offset + result.returned}`}
            {result.truncated && " (cut at the size cap)"}
          </p>
          <ol className="flex flex-col divide-y divide-line rounded border border-line bg-surface">
            {result.entries.map((e) => {
              const source = sourceOfFile(e.file);
              const href = fileLineHref(projectKey, e.session_ref, source, e.file, e.line_number);
              const title = context?.titles[e.session_ref] ?? null;
              const turn = source === "main" ? context?.turns[e.session_ref]?.find((t) => t.start <= e.line_number && e.line_number <= t.end) : undefined;
              const where = `${turn ? `${turn.turn_ref} · ` : ""}${source === "main" ? "" : `${e.file.replace(/^.*\//, "")}:`}L${e.line_number}`;
              return (
                <li key={`${e.session_ref}:${e.file}:${e.line_number}`} data-testid="search-hit" className="flex flex-col gap-0.5 px-3 py-1.5">
                  <div className="flex min-w-0 items-baseline gap-2 text-xs">
                    <span className="shrink-0 font-mono font-semibold">{e.session_ref}</span>
                    <span data-testid="hit-title" className="min-w-0 truncate text-ink/80" title={title ?? undefined}>
                      {title ?? "(no user message)"}
                    </span>
                    {source !== "main" && <Badge tone={source === "subagent" ? "accent" : "warn"}>{source}</Badge>}
                    {href ? (
                      <Link href={href} data-testid="hit-link" className="ml-auto shrink-0 font-mono text-accent hover:underline">
                        {where}
                      </Link>
                    ) : (
                      <span className="ml-auto shrink-0 font-mono">{where}</span>
                    )}
                  </div>
                  <p data-testid="hit-snippet" className="line-clamp-2 text-xs break-words text-muted">
                    {splitMatches(matchSnippet(e.raw, regex, CONTEXT_CHARS), regex).map((piece, i) =>
                      piece.match ? <mark key={i}>{piece.text}</mark> : <Fragment key={i}>{piece.text}</Fragment>,
                    )}
                  </p>
                </li>
              );
            })}
          </ol>
          {offset + result.returned < result.count && (
            <Link href={`${routes.search(projectKey, q)}&offset=${offset + result.returned}`} className="self-start text-xs text-accent hover:underline">
              Next matches
            </Link>
          )}
        </>
      )}
    </div>
  );
}
