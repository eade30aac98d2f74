import Link from "next/link";

import { formatCount } from "@/components/format/format";
import { routes } from "@/components/navigation/routes";
import { Badge } from "@/components/viewer/badge";
import type { GrepJsonlResult } from "@/lib/forensics/schema";

import { fileLineHref, sourceOfFile } from "./finding-link";

/** Characters of a matching line shown around the first match. */
const CONTEXT_CHARS = 220;

type SearchPageResult = GrepJsonlResult | { status: "invalid"; errors: { field: string; message: string; hint: string }[] };

/**
 * The project-wide search page: a GET form (`?q=`) and its `grep_jsonl` matches as
 * `session · file:line` links that open the viewer at the line.
 */
export function ProjectSearch({ projectKey, q, offset, result }: { projectKey: string; q: string; offset: number; result: SearchPageResult | null }) {
  return (
    <div className="mx-auto flex w-full max-w-6xl min-h-0 flex-1 flex-col gap-3 overflow-auto p-4">
      <nav aria-label="Breadcrumb" className="text-xs text-muted">
        <Link href={routes.project(projectKey)} className="hover:text-ink hover:underline">
          {projectKey}
        </Link>{" "}
        / Search
      </nav>
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
              const label = `${e.session_ref} · ${e.file.replace(/^sessions\/[^/]+\//, "")}:${e.line_number}`;
              return (
                <li key={`${e.session_ref}:${e.file}:${e.line_number}`} className="flex flex-col gap-0.5 px-3 py-1.5">
                  <div className="flex items-center gap-2 text-xs">
                    {source !== "main" && <Badge tone={source === "subagent" ? "accent" : "warn"}>{source}</Badge>}
                    {href ? (
                      <Link href={href} className="font-mono text-accent hover:underline">
                        {label}
                      </Link>
                    ) : (
                      <span className="font-mono">{label}</span>
                    )}
                  </div>
                  <code className="truncate font-mono text-2xs text-muted">{excerpt(e.raw, q)}</code>
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

function excerpt(raw: string, q: string): string {
  const at = matchIndex(raw, q);
  const start = Math.max(0, (at < 0 ? 0 : at) - CONTEXT_CHARS / 2);
  return `${start > 0 ? "…" : ""}${raw.slice(start, start + CONTEXT_CHARS)}`;
}

/**
 * Where the pattern first matches in `raw`, to centre the excerpt: the pattern as a JavaScript
 * regex (RE2's syntax agrees for common patterns; a leading `(?i)` becomes the `i` flag), else as
 * plain text; -1 when neither finds it (the excerpt then starts at the line's start).
 */
function matchIndex(raw: string, q: string): number {
  const insensitive = q.startsWith("(?i)");
  try {
    return raw.search(new RegExp(insensitive ? q.slice(4) : q, insensitive ? "i" : ""));
  } catch {
    return raw.indexOf(q);
  }
}
