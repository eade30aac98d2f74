"use client";

import { useCallback, useState, useSyncExternalStore } from "react";

/**
 * Whether a side panel of the session page is open: `null` on the server and while the page
 * hydrates (the panel's own CSS then shows it open from its breakpoint up and as a narrow rail
 * below, so the first paint fits the screen and agrees with the server's HTML), then what the
 * screen says (`query` matches: open) until the reader opens or closes it.
 * @param query a media query, e.g. `(min-width: 80rem)` (Tailwind's `xl`).
 * @returns `open` (`null`, open or closed), the reader's `toggle`, `over` (the open panel lies
 *   over the transcript: `query` does not match) and `dismiss` (closes a panel lying over the
 *   transcript as the screen would, so it opens again on a wide one).
 */
export function useDockedPanel(query: string): { open: boolean | null; toggle: () => void; over: boolean; dismiss: () => void } {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const media = window.matchMedia(query);
      media.addEventListener("change", onChange);
      return () => media.removeEventListener("change", onChange);
    },
    [query],
  );
  const wide = useSyncExternalStore<boolean | null>(
    subscribe,
    () => window.matchMedia(query).matches,
    () => null,
  );
  const [chosen, setChosen] = useState<boolean | null>(null);
  const open = chosen ?? wide;
  const toggle = useCallback(() => setChosen(!(open ?? true)), [open]);
  const over = open === true && wide === false;
  const dismiss = useCallback(() => {
    if (over) setChosen(null);
  }, [over]);
  return { open, toggle, over, dismiss };
}
