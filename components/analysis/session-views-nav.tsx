import Link from "next/link";

import { routes } from "@/components/navigation/routes";
import { SessionTabs } from "@/components/sessions/session-tabs";

/** Breadcrumb and the shared session tab bar for the Analysis and Chat export pages. */
export function SessionViewsNav({ projectKey, projectLabel, sessionRef, current }: { projectKey: string; projectLabel: string; sessionRef: string; current: "analysis" | "export" }) {
  return (
    <header className="flex flex-col gap-1">
      <nav aria-label="Breadcrumb" className="flex items-baseline gap-1 text-xs text-muted">
        <Link href={routes.home()} className="hover:text-ink hover:underline">
          Projects
        </Link>
        <span aria-hidden>/</span>
        <Link href={routes.project(projectKey)} className="hover:text-ink hover:underline">
          {projectLabel}
        </Link>
        <span aria-hidden>/</span>
        <span className="font-mono font-semibold text-ink">{sessionRef}</span>
      </nav>
      <SessionTabs projectKey={projectKey} sessionRef={sessionRef} active={current} />
    </header>
  );
}
