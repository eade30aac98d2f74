/** Which row resizes move the scroll position: only rows above the first row on screen. */
import type { VirtualItem, Virtualizer } from "@tanstack/react-virtual";

/**
 * Keeps what the reader sees still while rows around it get their real heights: a row above the
 * first visible one shifts everything under it, so the scroll position follows; a row on screen
 * or below does not. The first visible row comes from the last render's range, not from the
 * scroll offset, which the virtualizer moves before judging the next row of a batch.
 * @param item The resized row, as the virtualizer knew it before this measurement.
 * @returns true when the virtualizer should move the scroll position by the size change.
 */
export function adjustsScrollOnResize(item: VirtualItem, _delta: number, instance: Virtualizer<HTMLDivElement, Element>): boolean {
  const firstVisible = instance.range?.startIndex;
  return firstVisible !== undefined && item.index < firstVisible;
}
