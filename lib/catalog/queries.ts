// The lists and pages read from the catalog: projects, one project's sessions, the home overview — each in O(page).

import { catalogDb, withCatalog } from "@/lib/catalog/catalog";
import { ensureProjects, ensureProjectSessions } from "@/lib/catalog/ensure";
import { sessionItem } from "@/lib/catalog/session-item";
import type { CoreContext } from "@/lib/context";
import { controlPlaneProjectSummaries } from "@/lib/sources/control-plane/summary";
import type { ToolInputInvalid } from "@/lib/tools/define-tool";
import { findProject, type LoadedProject, loadWorkspace } from "@/lib/workspace/load";
import { type ListSessionsInput, listSessionsInputSchema, type ListSessionsResult, type ProjectSummary } from "@/lib/workspace/schema";
import { SqlWhere } from "@/lib/catalog/where";

/** A `projects` row of the catalog. */
export type CatalogProjectRow = {
  project_key: string;
  project_label: string;
  session_count: number;
  turn_count: number;
  cwd: string | null;
  git_branch: string | null;
  broken_rows: string;
  turns_with_chain: number;
  covered_turns: number;
  indexed_turns: number;
  synthesis_complete: number;
  has_envelope: number;
  /** The latest record time of the project's sessions (ISO), null when none has one. */
  last_activity_at: string | null;
  /** Tokens of the project's sessions (sum of those known), null when none is known. */
  total_tokens: number | null;
  /** What is wrong with the project's folder (lib/workspace/project-problem, issue 35), null when nothing. */
  problem: string | null;
};

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
    return catalogDb(ctx)
      .prepare(
        `SELECT p.*, a.last_activity_at, a.total_tokens FROM projects p
         LEFT JOIN (SELECT project_key, max(coalesce(ended_at, started_at)) AS last_activity_at, sum(total_tokens) AS total_tokens FROM sessions GROUP BY project_key) a USING (project_key)
         ORDER BY a.last_activity_at IS NULL, a.last_activity_at DESC, p.ord`,
      )
      .all() as CatalogProjectRow[];
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

const SORT_COLUMNS = new Set(["session_ref", "started_at", "duration_seconds", "turn_count", "subagent_count", "size_bytes", "output_tokens", "total_tokens", "cost_usd", "reset_count", "risk_level"]);

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
 * (nulls last, ties by session_ref) and sliced by `offset`/`limit` in SQL.
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
  if (!SORT_COLUMNS.has(sort)) throw new Error(`unexpected sort ${sort}`);
  const where = new SqlWhere(["project_key = @key"], { key: project_key })
    .add("(instr(js_lower(session_ref), @q) > 0 OR instr(js_lower(source), @q) > 0 OR instr(js_lower(source_session_id), @q) > 0 OR instr(js_lower(coalesce(first_user_message, '')), @q) > 0)", "q", q ? q.toLowerCase() : undefined)
    .add("risk_level = @risk", "risk", risk || undefined)
    .add("source = @source", "source", source || undefined)
    .add("machine = @machine", "machine", machine || undefined);
  const params = where.params;
  const db = catalogDb(ctx);
  const filter = where.sql;
  const total = (db.prepare(`SELECT count(*) AS n FROM sessions WHERE ${filter}`).get(params) as { n: number }).n;
  const dir = order === "asc" ? "ASC" : "DESC";
  const rows = db.prepare(`SELECT * FROM sessions WHERE ${filter} ORDER BY (${sort} IS NULL), ${sort} ${dir}, session_ref ASC LIMIT @limit OFFSET @offset`).all({ ...params, limit, offset }) as Record<string, unknown>[];
  const sessions = rows.map(sessionItem);
  return { status: "ok", project_key, count: sessions.length, total, offset, limit, sessions, risk_pending: pending };
}
