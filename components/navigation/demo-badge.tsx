import Link from "next/link";

import { routes } from "@/components/navigation/routes";

/**
 * On every page of a demo workspace (issue 12, item 2): says plainly that the data is generated,
 * linking to the home page's note on how real sessions replace it.
 */
export function DemoBadge() {
  return (
    <Link
      href={routes.home()}
      data-testid="demo-badge"
      title="These are transcripts Casefile generated: no Claude Code or Codex sessions were found on this machine."
      className="rounded border border-accent/40 bg-accent-soft px-1.5 py-0.5 text-2xs font-semibold text-accent hover:underline"
    >
      Demo data
    </Link>
  );
}
