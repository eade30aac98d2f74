"use client";

import { useSyncExternalStore } from "react";

import { parseSearchQuery, type SearchTerm } from "@/lib/catalog/search-query";
import { hasMatch, splitMatches } from "@/lib/format/text-match";

export { hasMatch, splitMatches };

/**
 * The regex that marks a search query's matches on the page (issue 37): its positive terms
 * (words, phrases, prefixes; not excluded terms, not filters), each escaped and matched
 * case-insensitively as search_sessions matches them; a prefix only at a word start (not after a
 * letter, digit or underscore). Longest terms first, so a phrase wins over a word inside it.
 * Null for a query that does not parse or has no term (filters only).
 */
export function queryHighlightRegex(query: string): RegExp | null {
  let terms: SearchTerm[];
  try {
    terms = parseSearchQuery(query).clauses.flatMap((clause) => clause.any);
  } catch {
    return null;
  }
  const sources = [...new Set(terms.filter((t) => t.text !== "").map((t) => `${t.kind === "prefix" ? "(?<![\\p{L}\\p{N}_])" : ""}${escapeRegex(t.text)}`))];
  if (sources.length === 0) return null;
  sources.sort((a, b) => b.length - a.length);
  return new RegExp(sources.join("|"), "giu");
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The transcript search's current query, shared by the search box (tab bar) and the rows that
 * mark its matches (issue 29): `regex` finds the matches to wrap in `<mark>`, `line` is the match
 * the reader is on, `snippet` that line's search snippet (`[[match]]` marks), shown when the row
 * does not show its match itself (a part compact mode trims). One per page; cleared with the query.
 */
export type SearchHighlight = { query: string; regex: RegExp; line: number | null; snippet: string | null };

let current: SearchHighlight | null = null;
const listeners = new Set<() => void>();

/** Sets (or with null clears) the query every row marks. */
export function setSearchHighlight(next: { query: string; line: number | null; snippet?: string | null } | null): void {
  const regex = next ? queryHighlightRegex(next.query) : null;
  current = next && regex ? { query: next.query, regex, line: next.line, snippet: next.snippet ?? null } : null;
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
