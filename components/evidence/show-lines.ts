import type { LineSpan } from "@/lib/evidence/schema";
import { requestScrollToLine, writeLineHash } from "@/components/viewer/line-hash";

/**
 * Scrolls the transcript to a cited span and highlights it, through the viewer's own `#L`
 * deep link (a history entry, so Back returns to where the reader was).
 */
export function showLines(span: LineSpan): void {
  writeLineHash({ start: span.start, end: span.end });
}

/** Scrolls the transcript to a line (a turn's first), leaving the reader's line selection alone. */
export function scrollToLine(line: number): void {
  requestScrollToLine(line);
}
