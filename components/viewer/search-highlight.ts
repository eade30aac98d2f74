"use client";

import { useSyncExternalStore } from "react";

/**
 * The transcript search's current query, shared by the search box (tab bar) and the rows that
 * mark its matches (issue 29): `regex` finds the matches to wrap in `<mark>`, `line` is the match
 * the reader is on. One per page; cleared with the query.
 */
export type SearchHighlight = { pattern: string; regex: RegExp; line: number | null };

let current: SearchHighlight | null = null;
const listeners = new Set<() => void>();

/**
 * A case-insensitive global regex for `pattern` (grep_jsonl's RE2 syntax is close to JS's); a
 * pattern JS cannot compile is matched literally. Null for a blank pattern.
 */
export function highlightRegex(pattern: string): RegExp | null {
  const p = pattern.trim();
  if (!p) return null;
  try {
    return new RegExp(p, "gi");
  } catch {
    return new RegExp(p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi");
  }
}

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

/** Whether `text` holds a match of `regex` (a global regex: its lastIndex is reset). */
export function hasMatch(regex: RegExp | null | undefined, text: string | null | undefined): boolean {
  if (!regex || !text) return false;
  regex.lastIndex = 0;
  const found = regex.test(text);
  regex.lastIndex = 0;
  return found;
}

/** `text` cut into plain and matching pieces (`match: true`), in order; a zero-length match ends the scan. */
export function splitMatches(text: string, regex: RegExp | null | undefined): { text: string; match: boolean }[] {
  if (!regex || !text) return [{ text, match: false }];
  const out: { text: string; match: boolean }[] = [];
  let last = 0;
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m; m = regex.exec(text)) {
    if (m[0] === "") break;
    if (m.index > last) out.push({ text: text.slice(last, m.index), match: false });
    out.push({ text: m[0], match: true });
    last = m.index + m[0].length;
  }
  regex.lastIndex = 0;
  if (last < text.length) out.push({ text: text.slice(last), match: false });
  return out;
}
