"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";

import { FilterInput } from "@/components/data-table/filter-input";
import { CoverageMeter } from "@/components/evidence/coverage-meter";
import { formatCount, formatLocalDateTime, plural } from "@/components/format/format";
import { PendingHint } from "@/components/navigation/pending-hint";
import { routes } from "@/components/navigation/routes";
import { ProjectOrigin } from "@/components/projects/project-origin";
import { overviewQuery } from "@/components/projects/queries";
import type { WorkspaceOverview } from "@/lib/overview/schema";

import { type ProjectListParams, type ProjectSortKey, visibleProjects } from "./project-list-params";
import { useProjectListParams } from "./use-project-list-params";

/**
 * The workspace's projects with last activity, counts, tokens and live evidence and synthesis
 * coverage: most recently active first, or as sorted by a column header (name, sessions, last
 * activity, evidence coverage), filtered by name or path; both live in the URL (`?q&sort&order`).
 * Empty, it says how projects arrive: `casefile prepare`, or on a `teamServer` each machine's push.
 */
export function ProjectList({ initial, teamServer = false }: { initial: WorkspaceOverview; teamServer?: boolean }) {
  const { data } = useQuery(overviewQuery(initial));
  const { params, toggleSort, setQuery } = useProjectListParams();
  const all = data.projects;
  if (all.length === 0) {
    // A team server is filled by its machines' pushes (issue 39, docs/team.md), a local workspace by prepare.
    return teamServer ? (
      <div className="flex flex-col gap-2 rounded-md border border-dashed border-line-strong bg-surface p-6 text-center text-muted">
        <p>No machine has pushed sessions to this team server yet. Their projects appear here as they arrive.</p>
        <p>
          On each machine: <code className="font-mono">casefile push --server URL --token TOKEN</code>, with a push token from{" "}
          <code className="font-mono">casefile token create --machine NAME --role push</code>.
        </p>
      </div>
    ) : (
      <p className="rounded-md border border-dashed border-line-strong bg-surface p-6 text-center text-muted">
        This workspace has no projects yet. Prepare it with <code className="font-mono">casefile prepare</code>.
      </p>
    );
  }
  const projects = visibleProjects(all, params);
  const sortable = { params, onSort: toggleSort };
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
        <FilterInput id="project-filter" label="Filter projects" placeholder="name or path…" value={params.q} onCommit={setQuery} widthClassName="w-64" />
        <span data-testid="project-count" className="text-xs text-muted">
          {projects.length === all.length ? plural(all.length, "project") : `${formatCount(projects.length)} of ${plural(all.length, "project")}`}
        </span>
      </div>
      {/* A narrow screen scrolls the table in its own box (issue 29: at 480 px it ran off the page's
          right edge); the key, shown on the project page, is left out below 48rem. */}
      <div className="overflow-x-auto rounded-md border border-line">
        <table aria-label="Projects" className="w-full bg-surface text-left">
          <thead className="border-b border-line-strong text-2xs tracking-wide text-muted uppercase">
            <tr>
              <SortHeader sortKey="name" {...sortable}>
                Project
              </SortHeader>
              <th scope="col" className="hidden px-3 py-2 font-semibold md:table-cell">Key</th>
              <SortHeader sortKey="activity" {...sortable}>
                Last activity
              </SortHeader>
              <SortHeader sortKey="sessions" align="right" {...sortable}>
                Sessions
              </SortHeader>
              <th scope="col" className="px-3 py-2 text-right font-semibold">Turns</th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">Tokens</th>
              <SortHeader sortKey="coverage" title="Sort by evidence coverage (turns with a chain over indexed turns)" {...sortable}>
                Evidence
              </SortHeader>
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
                  {project.problem && <p className="text-2xs text-danger">{project.problem}</p>}
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
        {projects.length === 0 && (
          <p className="bg-surface p-6 text-center text-muted">
            No project matches “{params.q}”.{" "}
            <button type="button" onClick={() => setQuery("")} className="text-accent hover:underline">
              Clear the filter
            </button>
          </p>
        )}
      </div>
    </div>
  );
}

type SortHeaderProps = {
  sortKey: ProjectSortKey;
  params: ProjectListParams;
  onSort: (key: ProjectSortKey) => void;
  align?: "right";
  title?: string;
  children: string;
};

/** A sortable column's header: a button that sorts by it (again: the other way), and its aria-sort. */
function SortHeader({ sortKey, params, onSort, align, title, children }: SortHeaderProps) {
  const sorted = params.sort === sortKey ? (params.order === "asc" ? "ascending" : "descending") : "none";
  return (
    <th scope="col" aria-sort={sorted} className={`px-3 py-2 font-semibold ${align === "right" ? "text-right" : ""}`}>
      <button type="button" onClick={() => onSort(sortKey)} title={title} className={`inline-flex items-center gap-1 uppercase hover:text-ink ${sorted !== "none" ? "text-ink" : ""}`}>
        {children}
        <span aria-hidden className="w-2 text-[0.6rem]">
          {sorted === "ascending" ? "▲" : sorted === "descending" ? "▼" : ""}
        </span>
      </button>
    </th>
  );
}
