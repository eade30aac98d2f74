import Link from "next/link";

import { routes } from "@/components/navigation/routes";

type SessionView = "transcript" | "analysis" | "export";
const TAB = "rounded-t border-b-2 px-2 py-1 text-xs";

/** Breadcrumb and the session's views (transcript, analysis, chat export) for the analysis pages. */
export function SessionViewsNav({ projectKey, projectLabel, sessionRef, current }: { projectKey: string; projectLabel: string; sessionRef: string; current: SessionView }) {
  const tab = (view: SessionView) =>
    current === view ? { "aria-current": "page" as const, className: `${TAB} border-accent font-semibold text-ink` } : { className: `${TAB} border-transparent text-muted hover:text-ink` };
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
      <nav aria-label="Session views" className="flex gap-1 border-b border-line">
        <Link href={routes.session(projectKey, sessionRef)} {...tab("transcript")}>
          Transcript
        </Link>
        <Link href={routes.analysis(projectKey, sessionRef)} {...tab("analysis")}>
          Analysis
        </Link>
        <Link href={routes.chatExport(projectKey, sessionRef)} {...tab("export")}>
          Chat export
        </Link>
      </nav>
    </header>
  );
}
