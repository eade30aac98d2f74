"use client";

import { useQuery } from "@tanstack/react-query";

import { formatCount, plural } from "@/components/format/format";
import { workspaceStatusQuery } from "@/components/projects/queries";
import type { PipelineError, WorkspacePhase, WorkspaceStatus } from "@/lib/pipeline/schema";

/** What each busy phase is called, and what it counts. */
const PHASES: Record<Exclude<WorkspacePhase, "ready">, { label: string; unit: string }> = {
  syncing: { label: "Syncing from your sources", unit: "session file" },
  cataloguing: { label: "Cataloguing", unit: "session" },
  indexing: { label: "Indexing for search", unit: "session" },
};

/**
 * The home page's line on the workspace's progress (issue 36 item 2: a first start you can
 * watch): a bar while the workspace is being synced, catalogued or indexed for search ("Indexing
 * for search: 4,210 of 20,001 sessions"), then "Search index complete · 20,001 sessions"; the last
 * error of a stage below either. Polls `workspace_status` while not ready ({@link workspaceStatusQuery}).
 */
export function WorkspaceProgress({ initial }: { initial: WorkspaceStatus }) {
  const { data: status } = useQuery(workspaceStatusQuery(initial));
  const error = status.last_error && <StageError error={status.last_error} />;
  if (status.phase === "ready") {
    if (status.sessions_total === 0) return error || null;
    const complete = status.sessions_indexed >= status.sessions_total;
    return (
      <div className="flex flex-col gap-1 text-xs text-muted">
        <p role="status">
          {complete ? `Search index complete · ${plural(status.sessions_total, "session")}` : `Search index: ${formatCount(status.sessions_indexed)} of ${plural(status.sessions_total, "session")}`}
        </p>
        {error}
      </div>
    );
  }
  const { label, unit } = PHASES[status.phase];
  const known = status.total > 0;
  const text = known ? `${label}: ${formatCount(status.done)} of ${plural(status.total, unit)}` : `${label}…`;
  const share = known ? Math.min(1, status.done / status.total) : 0;
  return (
    <section aria-label="Workspace progress" className="flex flex-col gap-1.5 rounded-md border border-line bg-surface px-3 py-2 text-sm">
      <div className="flex items-baseline justify-between gap-4">
        <span role="status">{text}</span>
        {known && <span className="font-mono text-2xs text-muted tabular-nums">{Math.floor(share * 100)}%</span>}
      </div>
      {/* Without a total yet (the sync is still finding the files) the bar has no value: indeterminate. */}
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={known ? status.total : undefined}
        aria-valuenow={known ? status.done : undefined}
        aria-valuetext={known ? text : undefined}
        className="h-1.5 overflow-hidden rounded-full bg-line"
      >
        <div className="h-full bg-accent transition-[width] duration-500" style={{ width: `${share * 100}%` }} />
      </div>
      {error}
    </section>
  );
}

/** The last failure of a stage, as the server logged it; the pipeline retries it by itself. */
function StageError({ error }: { error: PipelineError }) {
  return (
    <p className="text-xs text-warn">
      The {error.stage} failed: {error.message}. It is tried again by itself.
    </p>
  );
}
