"use client";

import { useSyncExternalStore } from "react";

const noSubscription = () => () => undefined;

/**
 * False on the server and while the page hydrates, true from the render right after hydration
 * (and from the first render of a component mounted later): what a component may render
 * differently once it runs in the browser, without a hydration mismatch. The change comes in
 * the same re-render as every other `useSyncExternalStore` reading the browser (the URL fragment
 * of `useLocationHash`), so effects after it see both.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/**
 * Rows a virtual list tells its virtualizer of: `count`, but at most `preHydrationRows` on the
 * server and while hydrating: TanStack Virtual measures every row it is told of on each render,
 * which a server render of a gigabyte session would spend on rows it never shows. The rows a
 * first screen shows are the same either way.
 */
export function useVirtualRowCount(count: number, preHydrationRows: number): number {
  return useHydrated() ? count : Math.min(count, preHydrationRows);
}
