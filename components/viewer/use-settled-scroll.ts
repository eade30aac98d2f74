import type { Virtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useRef } from "react";

export type ScrollAlign = "auto" | "start" | "end";

/** Long enough for the target's line window to arrive and its rows to be measured. */
const SETTLE_MS = 4_000;
const USER_SCROLL_EVENTS = ["wheel", "pointerdown", "touchstart", "keydown"] as const;

type Pending = { index: number; align: "start" | "end"; until: number; frame: number };

/**
 * scrollToIndex with measured row heights is exact only once the rows around the target
 * have their real content, which arrives with the line window after the jump (placeholders
 * are shorter). So re-aim every frame until the time runs out or the user scrolls.
 */
export function useSettledScroll(virtualizer: Virtualizer<HTMLDivElement, Element>) {
  const pending = useRef<Pending | null>(null);

  const cancel = useCallback(() => {
    if (pending.current) cancelAnimationFrame(pending.current.frame);
    pending.current = null;
  }, []);

  useEffect(() => {
    const element = virtualizer.options.getScrollElement();
    if (!element) return;
    for (const type of USER_SCROLL_EVENTS) element.addEventListener(type, cancel, { passive: true });
    return () => {
      for (const type of USER_SCROLL_EVENTS) element.removeEventListener(type, cancel);
      cancel();
    };
  }, [virtualizer, cancel]);

  return useCallback(
    (line: number, align: ScrollAlign) => {
      cancel();
      const index = line - 1;
      virtualizer.scrollToIndex(index, { align });
      if (align === "auto") return; // small j/k steps: nothing to settle
      const target: Pending = { index, align, until: performance.now() + SETTLE_MS, frame: 0 };
      const tick = () => {
        if (pending.current !== target || performance.now() > target.until) return;
        const wanted = virtualizer.getOffsetForIndex(index, align)?.[0];
        if (wanted !== undefined && Math.abs((virtualizer.scrollOffset ?? 0) - wanted) > 1) {
          virtualizer.scrollToIndex(index, { align });
        }
        target.frame = requestAnimationFrame(tick);
      };
      pending.current = target;
      target.frame = requestAnimationFrame(tick);
    },
    [virtualizer, cancel],
  );
}
