// The lists and pages read from the catalog: projects, one project's sessions, the home overview — each in O(page).

import { withCatalog } from "@/lib/catalog/catalog";
import { catalogStore } from "@/lib/catalog/catalog-store";
import { ensureProjects, ensureProjectSessions } from "@/lib/catalog/ensure";
import { sessionItem } from "@/lib/catalog/session-item";
import type { CoreContext } from "@/lib/context";
import { controlPlaneProjectSummaries } from "@/lib/sources/control-plane/summary";
import type { ToolInputInvalid } from "@/lib/tools/define-tool";
import { findProject, type LoadedProject, loadWorkspace } from "@/lib/workspace/load";
import { projectMachines } from "@/lib/workspace/machines";
import { type ListSessionsInput, listSessionsInputSchema, type ListSessionsResult, type ProjectSummary } from "@/lib/workspace/schema";
import type { CatalogProjectRow } from "@/lib/catalog/store";

/** A `projects` row of the catalog, with its sessions' last activity and tokens. */
export type { CatalogProjectRow } from "@/lib/catalog/store";

/**
 * A `list_projects` row: the project's summary, its last activity and its tokens (issue 25: "sorted
 * by last activity"), and `problem` only when something is wrong with the project's folder, such as
 * an evidence folder linked out of the workspace (issue 35: that project's row says so, the others
 * are listed as ever).
 */
export type ProjectListItem = ProjectSummary & { last_activity_at: string | null; total_tokens: number | null; problem?: string };

/**
 * The catalog's transcript projects, most recently active first (a session's activity is its last
 * record, else its start; projects without any time last; ties in directory order), brought in
 * step first (only projects whose index, evidence folder or envelope moved are re-read).
 * @throws AppError not_found (no workspace) | parse_error (contract §1.10).
 */
export function catalogProjectRows(ctx: CoreContext): Promise<CatalogProjectRow[]> {
  return withCatalog(ctx, async () => {
    await ensureProjects(ctx);
    return catalogStore(ctx).listProjects();
  });
}

/**
 * `list_projects` from the catalog: every transcript project, most recently active first, with
 * its counts, origin, malformed index rows, last activity and tokens; then the registered Control
 * Plane roots (issue 11). The summary fields are the values computed from the files
 * ({@link import("@/lib/workspace/projects").listProjects}, the test oracle).
 * @throws AppError not_found (no workspace) | parse_error (contract §1.10).
 */
export async function catalogProjects(ctx: CoreContext): Promise<ProjectListItem[]> {
  const rows = await catalogProjectRows(ctx);
  const transcripts: ProjectListItem[] = rows.map((r) => ({
    project_key: r.project_key,
    project_label: r.project_label,
    session_count: r.session_count,
    turn_count: r.turn_count,
    cwd: r.cwd,
    git_branch: r.git_branch,
    broken_rows: JSON.parse(r.broken_rows) as ProjectSummary["broken_rows"],
    last_activity_at: r.last_activity_at,
    total_tokens: r.total_tokens,
    ...(r.problem !== null ? { problem: r.problem } : {}),
  }));
  const controlPlane: ProjectListItem[] = (await controlPlaneProjectSummaries(ctx)).map(({ project_key, project_label, session_count, turn_count, root }) => ({ project_key, project_label, session_count, turn_count, cwd: root, git_branch: null, broken_rows: [], last_activity_at: null, total_tokens: null }));
  return [...transcripts, ...controlPlane];
}

/**
 * `list_sessions`' input checked and its project found, for both readers (the catalog's and the
 * files' one, its test oracle in lib/forensics/__fixtures__): `{status:"invalid", errors}` for bad
 * input or an unknown project.
 * @throws AppError parse_error when the workspace is malformed (contract §1.10).
 */
export async function listSessionsRequest(ctx: CoreContext, raw: unknown): Promise<{ status: "ok"; input: ListSessionsInput; project: LoadedProject } | ToolInputInvalid> {
  const parsed = listSessionsInputSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      status: "invalid",
      errors: parsed.error.issues.map((issue) => ({
        field: issue.path.join(".") || "input",
        message: issue.message,
        hint: "limit is 1-500, offset ≥ 0, sort one of the listed keys, order asc or desc",
      })),
    };
  }
  const project = findProject(await loadWorkspace(ctx), parsed.data.project_key);
  if (!project) {
    return { status: "invalid", errors: [{ field: "project_key", message: `unknown project_key '${parsed.data.project_key}'`, hint: "use the project_key from the prepared workspace" }] };
  }
  return { status: "ok", input: parsed.data, project };
}

/**
 * `list_sessions` (seed 004's paginated shape) from the catalog: the project's rows are brought
 * in step (one stat per session), then filtered by `q` (case-insensitive, over session_ref,
 * source, source_session_id and the first user message), `risk`, `source` and `machine`, sorted by `sort`/`order`
 * (nulls last, ties by session_ref) and sliced by `offset`/`limit` in the store.
 * Returns `{status:"invalid", errors:[{field,message,hint}]}` for bad input or an unknown project.
 * @throws AppError parse_error when the workspace is malformed (contract §1.10).
 */
export function catalogListSessions(ctx: CoreContext, input: unknown): Promise<ListSessionsResult | ToolInputInvalid> {
  return withCatalog(ctx, () => catalogListSessionsOnce(ctx, input));
}

async function catalogListSessionsOnce(ctx: CoreContext, input: unknown): Promise<ListSessionsResult | ToolInputInvalid> {
  const request = await listSessionsRequest(ctx, input);
  if (request.status === "invalid") return request;
  const { project, input: { project_key, limit, offset, sort, order, q, risk, source, machine } } = request;
  const pending = await ensureProjectSessions(ctx, project);
  const { total, rows } = await catalogStore(ctx).listSessions({ project_key, q, risk, source, machine, sort, order, limit, offset });
  const sessions = rows.map(sessionItem);
  const machines = projectMachines(project.dir, project.rows.map((r) => r.session_ref));
  return { status: "ok", project_key, count: sessions.length, total, offset, limit, sessions, machines, risk_pending: pending };
}
