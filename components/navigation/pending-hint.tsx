"use client";

import { useLinkStatus } from "next/link";

/**
 * A small spinner beside a link's text while the navigation it started is pending. Pages whose
 * first rows come with the HTML have no route-level loading fallback (app/(viewer)/layout.tsx),
 * so a slow first render (a cold project's risk analysis over a gigabyte session) shows here, on
 * the link that was clicked. Must be rendered inside a `next/link` `<Link>`; hidden from
 * assistive technology (the link's name does not change).
 */
export function PendingHint() {
  const { pending } = useLinkStatus();
  return (
    <span
      aria-hidden
      data-pending={pending || undefined}
      className="ml-1.5 inline-block size-2.5 rounded-full border-2 border-current border-t-transparent align-middle opacity-0 transition-opacity data-pending:animate-spin data-pending:opacity-70"
    />
  );
}
