"use client";

import { useSyncExternalStore } from "react";

import { hasMatch, highlightRegex, splitMatches } from "@/lib/format/text-match";

export { hasMatch, highlightRegex, splitMatches };

/**
 * The transcript search's current query, shared by the search box (tab bar) and the rows that
 * mark its matches (issue 29): `regex` finds the matches to wrap in `<mark>`, `line` is the match
 * the reader is on. One per page; cleared with the query.
 */
export type SearchHighlight = { pattern: string; regex: RegExp; line: number | null };

let current: SearchHighlight | null = null;
const listeners = new Set<() => void>();

/** Sets (or with null clears) the query every row marks. */
export function setSearchHighlight(next: { pattern: string; line: number | null } | null): void {
  const regex = next ? highlightRegex(next.pattern) : null;
  current = next && regex ? { pattern: next.pattern, regex, line: next.line } : null;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current search query, or null; re-renders on change. */
export function useSearchHighlight(): SearchHighlight | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}

