import Link from "next/link";

import { formatCount, plural } from "@/components/format/format";
import { Breadcrumb } from "@/components/navigation/breadcrumb";
import { routes } from "@/components/navigation/routes";
import { ProjectOrigin } from "@/components/projects/project-origin";
import type { SynthesisCounts } from "@/lib/synthesis/schema";
import type { ProjectSummary } from "@/lib/workspace/schema";

type ProjectView = "sessions" | "synthesis" | "search";

type ProjectHeaderProps = {
  project: ProjectSummary;
  /** The view this header sits on: its tab is marked current. */
  current?: ProjectView;
  /** Synthesis coverage for the tab's summary (omitted on the synthesis page, which shows it live). */
  synthesis?: Pick<SynthesisCounts, "covered_turns" | "indexed_turns">;
};

const TAB = "rounded-t border-b-2 px-2 py-1 text-xs";

export function ProjectHeader({ project, current = "sessions", synthesis }: ProjectHeaderProps) {
  const tab = (view: ProjectView) =>
    current === view ? { "aria-current": "page" as const, className: `${TAB} border-accent font-semibold text-ink` } : { className: `${TAB} border-transparent text-muted hover:text-ink` };
  return (
    <header className="flex flex-col gap-1">
      <Breadcrumb />
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h1 className="text-lg font-semibold">{project.project_label}</h1>
        <span className="font-mono text-xs text-muted">{project.project_key}</span>
        <span className="text-xs text-muted">
          {plural(project.session_count, "session")} · {plural(project.turn_count, "turn")}
        </span>
      </div>
      <ProjectOrigin cwd={project.cwd} gitBranch={project.git_branch} />
      {project.broken_rows.length > 0 && (
        <div role="alert" className="rounded-md border border-danger/30 bg-danger-soft px-3 py-2 text-xs text-danger">
          <p className="font-medium">
            {project.broken_rows.length === 1 ? "One index row could not be read; it is left out:" : `${project.broken_rows.length} index rows could not be read; they are left out:`}
          </p>
          <ul className="mt-1 list-disc pl-5 font-mono text-2xs">
            {project.broken_rows.map((row) => (
              <li key={row.line}>{row.message}</li>
            ))}
          </ul>
        </div>
      )}
      <nav aria-label="Project views" className="flex gap-1 border-b border-line">
        <Link href={routes.project(project.project_key)} {...tab("sessions")}>
          Sessions
        </Link>
        <Link href={routes.synthesis(project.project_key)} {...tab("synthesis")}>
          Synthesis
          {synthesis && (
            <span className="ml-1.5 font-mono text-2xs font-normal text-muted tabular-nums" title="turns covered by a work item / indexed turns">
              {formatCount(synthesis.covered_turns)}/{formatCount(synthesis.indexed_turns)} covered
            </span>
          )}
        </Link>
        {/* Every session of the project, by text or regex (issue 29). */}
        <Link href={routes.search(project.project_key)} {...tab("search")}>
          Search
        </Link>
      </nav>
    </header>
  );
}
