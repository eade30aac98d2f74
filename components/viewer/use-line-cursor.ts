import type { Virtualizer } from "@tanstack/react-virtual";
import { type MouseEvent, useCallback, useEffect, useMemo, useRef, useState } from "react";

import { formatLineHash, type LineRange, parseLineHash, useLocationHash, writeLineHash } from "./line-hash";
import { type ScrollAlign, useSettledScroll } from "./use-settled-scroll";

/**
 * Where the reader is: the highlighted range from the URL fragment (`#L23-L114`) and the
 * current line that j/k/g/G move. Moving the current line selects it: the fragment follows,
 * replaced in place (issue 36: the keys left `#L` behind; no history entry per keypress).
 * Fragments written by gutter clicks and moves do not scroll again; links, jump-to-line and
 * back/forward do.
 */
export function useLineCursor(virtualizer: Virtualizer<HTMLDivElement, Element>, lineCount: number) {
  const hash = useLocationHash();
  const highlight = useMemo(() => parseLineHash(hash, lineCount), [hash, lineCount]);
  // The cursor remembers which fragment it was set under: a new fragment moves it to its start.
  const [cursor, setCursor] = useState({ line: 1, hash: "" });
  const clamp = useCallback((line: number) => Math.min(Math.max(line, 1), lineCount), [lineCount]);
  const currentLine = highlight && cursor.hash !== hash ? highlight.start : clamp(cursor.line);
  const scrollToLine = useSettledScroll(virtualizer);

  const ownHash = useRef<string | null>(null);
  useEffect(() => {
    if (!highlight) return;
    if (ownHash.current === hash) {
      ownHash.current = null;
      return;
    }
    scrollToLine(highlight.start, "start");
  }, [hash, highlight, scrollToLine]);

  const isVisible = (line: number) => {
    const range = virtualizer.range;
    return !!range && line - 1 >= range.startIndex && line - 1 <= range.endIndex;
  };

  const moveTo = (line: number, align: ScrollAlign = "auto") => {
    const target = clamp(line);
    const range = { start: target, end: target };
    const next = formatLineHash(range);
    // Marked as own (this move scrolls itself), unless the fragment is that already and no change comes to clear the mark.
    if (next !== window.location.hash) ownHash.current = next;
    setCursor({ line: target, hash: next });
    writeLineHash(range, "replace");
    scrollToLine(target, align);
  };

  const step = (delta: 1 | -1) => {
    const range = virtualizer.range;
    // After scrolling away with the mouse, j/k start from what is on screen.
    if (range && !isVisible(currentLine)) moveTo(delta > 0 ? range.startIndex + 1 : range.endIndex + 1);
    else moveTo(currentLine + delta);
  };

  const jump = (range: LineRange) => {
    setCursor({ line: range.start, hash: formatLineHash(range) });
    writeLineHash(range); // not marked as own: the fragment effect scrolls to it
  };

  /** Gutter click: `#L<n>`; shift-click extends from the current fragment's start to a range. */
  const onLineClick = useCallback(
    (line: number, event: MouseEvent<HTMLAnchorElement>) => {
      if (event.metaKey || event.ctrlKey || event.button !== 0) return; // let the browser open a tab
      event.preventDefault();
      const anchor = event.shiftKey ? parseLineHash(window.location.hash, lineCount)?.start : undefined;
      const range = anchor ? { start: Math.min(anchor, line), end: Math.max(anchor, line) } : { start: line, end: line };
      const next = formatLineHash(range);
      ownHash.current = next;
      setCursor({ line, hash: next });
      writeLineHash(range);
    },
    [lineCount],
  );

  /** The reading position: the current line while it is on screen, else the first line shown (also kept in view through a mode toggle). */
  const anchorLine = () => (isVisible(currentLine) ? currentLine : (virtualizer.range?.startIndex ?? 0) + 1);

  return { hash, highlight, currentLine, moveTo, step, jump, onLineClick, anchorLine, scrollToLine };
}
