"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";

import { CoverageMeter } from "@/components/evidence/coverage-meter";
import { formatCount, formatLocalDateTime } from "@/components/format/format";
import { PendingHint } from "@/components/navigation/pending-hint";
import { routes } from "@/components/navigation/routes";
import { ProjectOrigin } from "@/components/projects/project-origin";
import { overviewQuery } from "@/components/projects/queries";
import type { WorkspaceOverview } from "@/lib/overview/schema";

/** The workspace's projects, most recently active first, with last activity, counts, tokens and live evidence and synthesis coverage. */
export function ProjectList({ initial }: { initial: WorkspaceOverview }) {
  const { data } = useQuery(overviewQuery(initial));
  const projects = data.projects;
  if (projects.length === 0) {
    return (
      <p className="rounded-md border border-dashed border-line-strong bg-surface p-6 text-center text-muted">
        This workspace has no projects yet. Prepare it with <code className="font-mono">casefile prepare</code>.
      </p>
    );
  }
  return (
    // A narrow screen scrolls the table in its own box (issue 29: at 480 px it ran off the page's
    // right edge); the key, shown on the project page, is left out below 48rem.
    <div className="overflow-x-auto rounded-md border border-line">
      <table className="w-full bg-surface text-left">
        <thead className="border-b border-line-strong text-2xs tracking-wide text-muted uppercase">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold">Project</th>
            <th scope="col" className="hidden px-3 py-2 font-semibold md:table-cell">Key</th>
            <th scope="col" className="px-3 py-2 font-semibold" aria-sort="descending">Last activity</th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">Sessions</th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">Turns</th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">Tokens</th>
            <th scope="col" className="px-3 py-2 font-semibold">Evidence</th>
            <th scope="col" className="px-3 py-2 font-semibold">Synthesis</th>
          </tr>
        </thead>
        <tbody>
          {projects.map((project) => (
            <tr key={project.project_key} className="border-b border-line/70 last:border-0 hover:bg-accent-soft/60">
              <td className="px-3 py-2">
                <Link href={routes.project(project.project_key)} className="font-medium text-accent hover:underline">
                  {project.project_label}
                  <PendingHint />
                </Link>
                <ProjectOrigin cwd={project.cwd} gitBranch={project.git_branch} />
                {project.broken_row_count > 0 && (
                  <p className="text-2xs text-danger">{project.broken_row_count === 1 ? "1 index row is malformed" : `${formatCount(project.broken_row_count)} index rows are malformed`}</p>
                )}
              </td>
              <td className="hidden px-3 py-2 font-mono text-xs text-muted md:table-cell">{project.project_key}</td>
              <td className="px-3 py-2 text-xs whitespace-nowrap">
                <time dateTime={project.last_activity_at ?? undefined} title={project.last_activity_at ?? undefined} className="tabular-nums" suppressHydrationWarning>
                  {formatLocalDateTime(project.last_activity_at)}
                </time>
              </td>
              <td className="px-3 py-2 text-right tabular-nums">{formatCount(project.session_count)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{formatCount(project.turn_count)}</td>
              <td className="px-3 py-2 text-right tabular-nums">{project.total_tokens === null ? "—" : formatCount(project.total_tokens)}</td>
              {project.source_kind === "control-plane" ? (
                <td colSpan={2} className="px-3 py-2 text-xs text-muted">
                  Control Plane ledgers
                </td>
              ) : (
                <>
                  <td className="px-3 py-2">
                    <CoverageMeter withChain={project.turns_with_chain} total={project.turn_count} label={`Evidence coverage of ${project.project_label}`} />
                  </td>
                  <td className="px-3 py-2">
                    <Link href={routes.synthesis(project.project_key)} className="hover:underline">
                      <CoverageMeter withChain={project.covered_turns} total={project.turn_count} what="are covered by a work item" label={`Synthesis coverage of ${project.project_label}`} />
                    </Link>
                  </td>
                </>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
