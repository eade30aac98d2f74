/** Which row resizes move the scroll position: only rows above the first row on screen. */
import type { VirtualItem, Virtualizer } from "@tanstack/react-virtual";

/**
 * Keeps what the reader sees still while rows around it get their real heights: a row above the
 * first visible one shifts everything under it, so the scroll position follows; a row on screen
 * or below does not. The first visible row comes from the range of the last render, not from
 * the scroll offset: @tanstack/virtual-core 3.19 adds each adjustment to that offset before the
 * next row of the same batch is judged, so a window of rows arriving at once (a cold line window
 * after a jump) used to cascade the viewer down to the end of the session.
 *
 * @param item The resized row, as the virtualizer knew it before this measurement.
 * @returns true when the virtualizer should move the scroll position by the size change.
 */
export function adjustsScrollOnResize(item: VirtualItem, _delta: number, instance: Virtualizer<HTMLDivElement, Element>): boolean {
  const firstVisible = instance.range?.startIndex;
  return firstVisible !== undefined && item.index < firstVisible;
}
