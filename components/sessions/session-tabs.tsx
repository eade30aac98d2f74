import Link from "next/link";
import type { ReactNode } from "react";

import { routes } from "@/components/navigation/routes";

/** One tab of the session pages. Other pages append their own entry (Analysis, Chat export). */
export type SessionTab = { id: string; label: string; href: (projectKey: string, sessionRef: string) => string };

/** The session pages, in tab order. */
export const SESSION_TABS: SessionTab[] = [
  { id: "transcript", label: "Transcript", href: (projectKey, sessionRef) => routes.session(projectKey, sessionRef) },
  { id: "timeline", label: "Timeline", href: (projectKey, sessionRef) => routes.timeline(projectKey, sessionRef) },
  { id: "analysis", label: "Analysis", href: (projectKey, sessionRef) => routes.analysis(projectKey, sessionRef) },
  { id: "export", label: "Chat export", href: (projectKey, sessionRef) => routes.chatExport(projectKey, sessionRef) },
];

/** The tab bar shown on every session page; `children` sit at its right end (e.g. a search box). */
export function SessionTabs({ projectKey, sessionRef, active, children }: { projectKey: string; sessionRef: string; active: string; children?: ReactNode }) {
  return (
    <div className="flex min-h-9 shrink-0 flex-wrap items-center gap-x-4 border-b border-line bg-surface px-4">
      <nav aria-label="Session views" className="flex gap-1">
        {SESSION_TABS.map((tab) => (
          <Link
            key={tab.id}
            href={tab.href(projectKey, sessionRef)}
            aria-current={tab.id === active ? "page" : undefined}
            className="-mb-px border-b-2 border-transparent px-2.5 py-1.5 text-xs text-muted hover:text-ink aria-[current=page]:border-accent aria-[current=page]:font-medium aria-[current=page]:text-ink"
          >
            {tab.label}
          </Link>
        ))}
      </nav>
      <div className="ml-auto flex items-center gap-3">{children}</div>
    </div>
  );
}
