import { useSyncExternalStore } from "react";

/** A highlighted line range from the URL fragment: `#L23` or `#L23-L114` (1-based, inclusive). */
export type LineRange = { start: number; end: number };

const HASH_RE = /^#L(\d+)(?:-L?(\d+))?$/;
/** Fired after the viewer writes the fragment itself (pushState does not fire hashchange). */
const LINE_HASH_EVENT = "casefile:linehash";

/** The range a fragment asks for, as written (not clamped to the transcript); a reversed range is put in order. Anything else → null. */
export function readLineHash(hash: string): LineRange | null {
  const match = HASH_RE.exec(hash);
  if (!match) return null;
  const a = Number(match[1]);
  const b = match[2] === undefined ? a : Number(match[2]);
  return { start: Math.min(a, b), end: Math.max(a, b) };
}

/** Parses and clamps to [1, lineCount]; a reversed range is put in order. Anything else → null. */
export function parseLineHash(hash: string, lineCount: number): LineRange | null {
  const range = readLineHash(hash);
  if (!range || lineCount < 1) return null;
  const clamp = (n: number) => Math.min(lineCount, Math.max(1, n));
  return { start: clamp(range.start), end: clamp(range.end) };
}

/**
 * What to tell a reader whose fragment asks for lines past the end (issue 36: `#L200` on a
 * 63-line session landed on line 63 without a word); null when every line it names exists.
 * `what` names the transcript ("session", "subagent transcript").
 */
export function pastEndNotice(hash: string, lineCount: number, what = "session"): string | null {
  const range = readLineHash(hash);
  if (!range || lineCount < 1 || range.end <= lineCount) return null;
  const has = `this ${what} has ${lineCount === 1 ? "1 line" : `${lineCount.toLocaleString("en-US")} lines`}`;
  if (range.start > lineCount) {
    const asked = range.start === range.end ? `Line ${range.start} is` : `Lines ${range.start}–${range.end} are`;
    return `${asked} past the end: ${has}. Showing line ${lineCount}.`;
  }
  return `Lines ${range.start}–${range.end} run past the end: ${has}. Showing ${range.start}–${lineCount}.`;
}

/** `#L23`, or `#L23-L114` for a range. */
export function formatLineHash(range: LineRange): string {
  return range.start === range.end ? `#L${range.start}` : `#L${range.start}-L${range.end}`;
}

function subscribe(onChange: () => void) {
  window.addEventListener("hashchange", onChange);
  window.addEventListener("popstate", onChange);
  window.addEventListener(LINE_HASH_EVENT, onChange);
  return () => {
    window.removeEventListener("hashchange", onChange);
    window.removeEventListener("popstate", onChange);
    window.removeEventListener(LINE_HASH_EVENT, onChange);
  };
}

/** The raw fragment; "" on the server, where there is none. */
export function useLocationHash(): string {
  return useSyncExternalStore(
    subscribe,
    () => window.location.hash,
    () => "",
  );
}

/**
 * Writes the fragment and notifies readers: as a history entry (`push`: shareable, back-button
 * friendly), or in place of the current one (`replace`: the keys that walk the lines, so a
 * keypress adds no entry to Back).
 */
export function writeLineHash(range: LineRange, mode: "push" | "replace" = "push"): void {
  const url = `${window.location.pathname}${window.location.search}${formatLineHash(range)}`;
  // null state: Next.js patches pushState/replaceState and merges its own router state in (docs: "Native History API").
  if (mode === "push") window.history.pushState(null, "", url);
  else window.history.replaceState(null, "", url);
  window.dispatchEvent(new Event(LINE_HASH_EVENT));
}

/** Fired to scroll the open viewer to a line without touching the fragment (the selection stays). */
const SCROLL_EVENT = "casefile:scrolltoline";

/** Asks the open viewer to scroll `line` to the top, keeping the `#L…` selection as it is. */
export function requestScrollToLine(line: number): void {
  window.dispatchEvent(new CustomEvent<number>(SCROLL_EVENT, { detail: line }));
}

/** Subscribes to {@link requestScrollToLine}; returns the unsubscribe function. */
export function onScrollToLineRequest(handler: (line: number) => void): () => void {
  const listener = (event: Event) => handler((event as CustomEvent<number>).detail);
  window.addEventListener(SCROLL_EVENT, listener);
  return () => window.removeEventListener(SCROLL_EVENT, listener);
}
