import Link from "next/link";
import type { ReactNode } from "react";

import { routes } from "@/components/navigation/routes";
import { PendingHint } from "@/components/navigation/pending-hint";

type BreadcrumbProps = {
  /** The project the page belongs to, linked after "Projects"; absent on a project's own page. */
  project?: { project_key: string; project_label: string };
  /** The page's own name, unlinked, after the trail (omit when the page's heading says it). */
  current?: ReactNode;
};

/** The "Projects / <project> / …" trail every page below the home page opens with. */
export function Breadcrumb({ project, current }: BreadcrumbProps) {
  return (
    <nav aria-label="Breadcrumb" className="flex items-baseline gap-1 text-xs text-muted">
      <Link href={routes.home()} className="hover:text-ink hover:underline">
        Projects
      </Link>
      <span aria-hidden>/</span>
      {project && (
        <>
          <Link href={routes.project(project.project_key)} className="relative hover:text-ink hover:underline">
            {project.project_label}
            <PendingHint floating />
          </Link>
          <span aria-hidden>/</span>
        </>
      )}
      {current !== undefined && <span className="font-mono font-semibold text-ink">{current}</span>}
    </nav>
  );
}
