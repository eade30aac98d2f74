"use client";

import { useCallback, useState, useSyncExternalStore } from "react";

/**
 * Whether a side panel of the session page is open: `null` on the server and while the page
 * hydrates (the panel's own CSS then shows it open from its breakpoint up and as a narrow rail
 * below, so the first paint fits the screen and agrees with the server's HTML), then what the
 * screen says (`query` matches: open) until the reader opens or closes it.
 * @param query a media query, e.g. `(min-width: 80rem)` (Tailwind's `xl`).
 * @returns the state (`null`, open or closed) and the reader's toggle.
 */
export function useDockedPanel(query: string): [open: boolean | null, toggle: () => void] {
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
  return [open, toggle];
}
