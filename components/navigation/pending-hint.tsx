"use client";

import { useLinkStatus } from "next/link";

/**
 * A small spinner beside a link's text while the navigation it started is pending. Pages whose
 * first rows come with the HTML have no route-level loading fallback (app/(viewer)/layout.tsx),
 * so a slow first render (a cold project's risk analysis over a gigabyte session) shows here, on
 * the link that was clicked. Must be rendered inside a `next/link` `<Link>`; hidden from
 * assistive technology (the link's name does not change). `floating`: laid over what follows the
 * link (the link must be `relative`) instead of taking room beside it, for a trail of short links
 * (the breadcrumb's hidden spinner left a gap before its "/").
 */
export function PendingHint({ floating = false }: { floating?: boolean }) {
  const { pending } = useLinkStatus();
  return (
    <span
      aria-hidden
      data-pending={pending || undefined}
      className={`${floating ? "absolute top-1/2 left-full ml-0.5 -translate-y-1/2" : "ml-1.5 inline-block align-middle"} size-2.5 rounded-full border-2 border-current border-t-transparent opacity-0 transition-opacity data-pending:animate-spin data-pending:opacity-70`}
    />
  );
}
