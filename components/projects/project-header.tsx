import Link from "next/link";

import { plural } from "@/components/format/format";
import { routes } from "@/components/navigation/routes";
import type { ProjectSummary } from "@/lib/workspace/schema";

export function ProjectHeader({ project }: { project: ProjectSummary }) {
  return (
    <header className="flex flex-col gap-1">
      <nav aria-label="Breadcrumb" className="text-xs text-muted">
        <Link href={routes.home()} className="hover:text-ink hover:underline">
          Projects
        </Link>
        <span aria-hidden> / </span>
      </nav>
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h1 className="text-lg font-semibold">{project.project_label}</h1>
        <span className="font-mono text-xs text-muted">{project.project_key}</span>
        <span className="text-xs text-muted">
          {plural(project.session_count, "session")} · {plural(project.turn_count, "turn")}
        </span>
      </div>
    </header>
  );
}
