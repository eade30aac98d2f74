"use client";

import { useMutation } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { type FormEvent, useEffect, useRef, useState } from "react";

import { useHotkeys } from "@/components/hooks/use-hotkeys";
import { parseLineHash, writeLineHash } from "@/components/viewer/line-hash";
import { setSearchHighlight } from "@/components/viewer/search-highlight";
import { isAppError } from "@/lib/errors";

import { findInSession, type SessionMatches } from "./find-in-session";

type ViewerSearchProps = { projectKey: string; sessionRef: string; agentId: string | null };

/** The matches of the query searched and where the reader is: `at` an index of `lines`, or -1 when on none (then `from`, the line the reader was on). */
type SearchState = SessionMatches & { query: string; at: number; from: number };

/**
 * Find in session (issue 37): the query language of the global search, run through
 * `search_sessions` restricted to this session and to the transcript on screen (main or one
 * subagent), so it finds the same lines. Moves the viewer to each match by writing its `#L<n>`
 * fragment; the rows mark the query's terms. `/` focuses the box, Enter or `n` goes to the next
 * match, `N` to the previous one (wrapping). A `?q=` in the URL (a global search hit) is searched
 * on load, starting at the linked line.
 */
export function ViewerSearch({ projectKey, sessionRef, agentId }: ViewerSearchProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const initial = useSearchParams().get("q")?.trim() ?? "";
  const [query, setQuery] = useState(initial);
  const [state, setState] = useState<SearchState | null>(null);
  const search = useMutation({
    mutationFn: ({ q }: { q: string; onLoad: boolean }) => findInSession({ projectKey, sessionRef, agentId, query: q }),
    onSuccess: (found, { q, onLoad }) => {
      const from = parseLineHash(window.location.hash, Number.MAX_SAFE_INTEGER)?.start ?? 0;
      const { lines } = found;
      // Opened from a hit: stay on the linked line (a match, or the call of a persisted result); a new search moves past the line the reader is on.
      const at = onLoad && from > 0 ? lines.indexOf(from) : lines.length ? Math.max(0, lines.findIndex((l) => l > from)) : -1;
      setState({ ...found, query: q, at, from });
      show(q, found, at);
      if (at >= 0 && lines[at] !== from) writeLineHash({ start: lines[at]!, end: lines[at]! });
      writeQueryParam(q);
    },
  });

  const go = (step: 1 | -1) => {
    if (!state || state.lines.length === 0) return;
    const { lines } = state;
    let at: number;
    if (state.at >= 0) at = (state.at + step + lines.length) % lines.length;
    else if (step === 1) at = Math.max(0, lines.findIndex((l) => l > state.from));
    else at = lines.findLastIndex((l) => l < state.from) === -1 ? lines.length - 1 : lines.findLastIndex((l) => l < state.from);
    setState({ ...state, at });
    show(state.query, state, at);
    writeLineHash({ start: lines[at]!, end: lines[at]! });
  };

  // A query in the URL (a global search hit's link) is searched once, on load.
  useEffect(() => {
    if (initial) search.mutate({ q: initial, onLoad: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per mount: the URL's query, not later edits
  }, []);
  // The rows' marks live as long as this box: leaving the page clears them.
  useEffect(() => () => setSearchHighlight(null), []);

  /** A new query (or none) drops the old matches: counter and marks (issue 29). */
  const reset = () => {
    search.reset();
    setState(null);
    setSearchHighlight(null);
  };

  useHotkeys({
    "/": () => inputRef.current?.focus(),
    n: () => go(1),
    N: () => go(-1),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = query.trim();
    if (!q) return;
    if (state && state.query === q && !search.isPending) go(1);
    else search.mutate({ q, onLoad: false });
  };

  const error = search.isError ? (isAppError(search.error) ? search.error : null) : null;
  const hint = typeof error?.details.hint === "string" ? ` (${error.details.hint})` : "";
  return (
    <form role="search" onSubmit={submit} className="flex min-w-0 items-center gap-1.5">
      <input
        ref={inputRef}
        type="search"
        aria-label="Search this transcript"
        placeholder="Find in session (/)"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          if ((state || search.isError) && event.target.value.trim() !== state?.query) reset();
        }}
        onKeyDown={(event) => {
          if (event.key !== "Escape") return;
          // Esc clears the query, its counter and its marks, then leaves the box.
          event.preventDefault();
          setQuery("");
          reset();
          writeQueryParam("");
          event.currentTarget.blur();
        }}
        className="h-6 w-44 rounded border border-line-strong bg-surface px-2 font-mono text-xs sm:w-56"
      />
      <span
        data-testid="search-status"
        role={search.isError ? "alert" : undefined}
        aria-live="polite"
        title={search.isError ? `${search.error.message}${hint}` : undefined}
        className={`min-w-20 text-2xs ${search.isError ? "max-w-md text-danger" : "text-muted"}`}
      >
        {search.isPending
          ? "Searching…"
          : search.isError
            ? `${search.error.message.replace(/^query: /, "")}${hint}`
            : state
              ? statusText(state)
              : null}
      </span>
    </form>
  );
}

function statusText({ lines, more, at }: SearchState): string {
  if (lines.length === 0) return "No matches";
  const count = `${lines.length}${more ? "+" : ""}`;
  return at >= 0 ? `${at + 1} / ${count} · n/N` : `${count} matches · n/N`;
}

/** Marks the query's terms on every row and names the match the reader is on (with its snippet, for a row that trims it). */
function show(query: string, { lines, snippets }: SessionMatches, at: number): void {
  const line = at >= 0 ? lines[at]! : null;
  setSearchHighlight({ query, line, snippet: line === null ? null : (snippets.get(line) ?? null) });
}

/** Keeps the query in the URL (`?q=`), so a reload or a copied link searches it again; no history entry. */
function writeQueryParam(query: string): void {
  const params = new URLSearchParams(window.location.search);
  if (query) params.set("q", query);
  else params.delete("q");
  const search = params.toString();
  window.history.replaceState(null, "", `${window.location.pathname}${search ? `?${search}` : ""}${window.location.hash}`);
}
