"use client";

import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";

import { useHotkeys } from "@/components/hooks/use-hotkeys";
import { fetchJson, toSearchParams } from "@/components/query/fetch-json";
import { parseLineHash, writeLineHash } from "@/components/viewer/line-hash";
import { setSearchHighlight } from "@/components/viewer/search-highlight";
import type { GrepJsonlResult } from "@/lib/forensics/schema";

/** Matches fetched per search (grep_jsonl's page cap). */
const MAX_MATCHES = 1000;

type ViewerSearchProps = { projectKey: string; sessionRef: string; agentId: string | null };

/**
 * The viewer's search box: greps the transcript on screen (main or one subagent) through
 * `grep_jsonl` and moves the viewer to each match by writing its `#L<n>` fragment. `/` focuses
 * the box, Enter or `n` goes to the next match, `N` to the previous one (wrapping).
 */
export function ViewerSearch({ projectKey, sessionRef, agentId }: ViewerSearchProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [pattern, setPattern] = useState("");
  const [state, setState] = useState<{ pattern: string; lines: number[]; count: number; at: number } | null>(null);
  const search = useMutation({
    mutationFn: (p: string) =>
      fetchJson<GrepJsonlResult>(
        `/api/projects/${encodeURIComponent(projectKey)}/search?${toSearchParams({ pattern: p, session_ref: sessionRef, ledger: agentId ? `subagent:${agentId}` : "main", limit: MAX_MATCHES })}`,
      ),
    onSuccess: (result, p) => {
      const lines = [...new Set(result.entries.map((e) => e.line_number))];
      const from = parseLineHash(window.location.hash, Number.MAX_SAFE_INTEGER)?.start ?? 0;
      const first = Math.max(0, lines.findIndex((l) => l > from));
      setState({ pattern: p, lines, count: result.count, at: lines.length ? first : -1 });
      setSearchHighlight({ pattern: p, line: lines.length ? lines[first]! : null });
      if (lines.length) writeLineHash({ start: lines[first]!, end: lines[first]! });
    },
  });

  const go = (step: 1 | -1) => {
    if (!state || state.lines.length === 0) return;
    const at = (state.at + step + state.lines.length) % state.lines.length;
    setState({ ...state, at });
    setSearchHighlight({ pattern: state.pattern, line: state.lines[at]! });
    writeLineHash({ start: state.lines[at]!, end: state.lines[at]! });
  };

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
    const p = pattern.trim();
    if (!p) return;
    if (state && state.pattern === p && !search.isPending) go(1);
    else search.mutate(p);
  };

  return (
    <form role="search" onSubmit={submit} className="flex items-center gap-1.5">
      <input
        ref={inputRef}
        type="search"
        aria-label="Search this transcript"
        placeholder="Search (/) — regex"
        value={pattern}
        onChange={(event) => {
          setPattern(event.target.value);
          if (state && event.target.value.trim() !== state.pattern) reset();
        }}
        onKeyDown={(event) => {
          if (event.key !== "Escape") return;
          // Esc clears the query, its counter and its marks, then leaves the box.
          event.preventDefault();
          setPattern("");
          reset();
          event.currentTarget.blur();
        }}
        className="h-6 w-44 rounded border border-line-strong bg-surface px-2 font-mono text-xs sm:w-56"
      />
      <span data-testid="search-status" aria-live="polite" className="min-w-20 text-2xs text-muted">
        {search.isPending
          ? "Searching…"
          : search.isError
            ? search.error.message
            : state
              ? state.lines.length === 0
                ? "No matches"
                : `${state.at + 1} / ${state.lines.length}${state.count > state.lines.length ? "+" : ""} · n/N`
              : null}
      </span>
    </form>
  );
}
