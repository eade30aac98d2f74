import { useSyncExternalStore } from "react";

/** A highlighted line range from the URL fragment: `#L23` or `#L23-L114` (1-based, inclusive). */
export type LineRange = { start: number; end: number };

const HASH_RE = /^#L(\d+)(?:-L?(\d+))?$/;
/** Fired after the viewer writes the fragment itself (pushState does not fire hashchange). */
const LINE_HASH_EVENT = "casefile:linehash";

/** Parses and clamps to [1, lineCount]; a reversed range is put in order. Anything else → null. */
export function parseLineHash(hash: string, lineCount: number): LineRange | null {
  const match = HASH_RE.exec(hash);
  if (!match || lineCount < 1) return null;
  const a = Number(match[1]);
  const b = match[2] === undefined ? a : Number(match[2]);
  const clamp = (n: number) => Math.min(lineCount, Math.max(1, n));
  return { start: clamp(Math.min(a, b)), end: clamp(Math.max(a, b)) };
}

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

/** Writes the fragment as a history entry (shareable, back-button friendly) and notifies readers. */
export function writeLineHash(range: LineRange): void {
  const url = `${window.location.pathname}${window.location.search}${formatLineHash(range)}`;
  // null state: Next.js patches pushState and merges its own router state in (docs: "Native History API").
  window.history.pushState(null, "", url);
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
