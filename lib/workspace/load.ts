/** A prepared workspace loaded (metadata, projects, index rows) and cached by its stamp. */
import fs from "node:fs/promises";
import path from "node:path";

import type { CoreContext } from "@/lib/context";
import { stampedCache } from "@/lib/cache/stamped-cache";
import { AppError } from "@/lib/errors";
import { listDir } from "@/lib/fs/list-dir";
import { linksOutside } from "@/lib/fs/paths";
import { METADATA_FILE, metadataPath, PROJECT_JSON, projectDir, projectJsonPath, projectsDir, PROJECTS_DIR, SESSIONS_INDEX, sessionsDir, sessionsIndexPath, workspaceStamp } from "@/lib/fs/workspace-layout";
import { forEachTextRecord } from "@/lib/jsonl/text-lines";
import type { IndexRow } from "@/lib/workspace/schema";

/** `metadata.json` fields Casefile reads (contract §1.2). Windows are null for all-time workspaces. */
export type WorkspaceMetadata = {
  schema_version: number | null;
  report_date: string;
  timezone: string;
  status: string;
  prepared_at: string | null;
  /** True when `report_window_utc` is recorded with a null start: an all-time workspace. */
  all_time: boolean;
};

/**
 * An index row the loader could not read (issue 12: one malformed row must not make the whole
 * project unreadable). `line` is 1-based in `sessions.index.jsonl`; `session_ref` is set when the
 * row named one; `message` names the file workspace-relative, like every loader error.
 */
export type BrokenIndexRow = { line: number; session_ref: string | null; message: string };

export type LoadedProject = {
  projectKey: string;
  projectLabel: string;
  /** Absolute project directory. */
  dir: string;
  rows: IndexRow[];
  /** Rows left out because they are malformed (empty for a healthy index). */
  brokenRows: BrokenIndexRow[];
};

export type LoadedWorkspace = {
  root: string;
  metadata: WorkspaceMetadata;
  /** Schema-2 workspaces are read-only (issue 2: "schema 3; schema 2 read-only"). */
  readOnly: boolean;
  projects: LoadedProject[];
};

/** `T` and four or more digits: prompt-diary writes T%04d, so a session past 9,999 turns has T10000 (issue 12). */
const TURN_REF = /^T\d{4,}$/;
/**
 * Loaded workspaces by root, one per process (lib/cache/stamped-cache): each of Next's bundle
 * layers once loaded its own copy, and code keyed by a loaded project's identity (the synthesis
 * state) computed again whenever a caller from another layer asked (issue 13: server RSS).
 * Counted at {@link ROW_BYTES} per index row: the budget holds a workspace of 250,000 sessions.
 */
const cache = stampedCache<LoadedWorkspace>("workspace:loaded", 256 << 20);
/** Heap bytes counted per loaded index row (a parsed row with its paths and timestamps holds well under this). */
const ROW_BYTES = 1024;

/**
 * Loads a prepared workspace the way prompt-diary's `load_prepared_workspace` does
 * (contract §1.10), with the same error messages, except that a malformed index row is not
 * fatal: it is left out and listed in its project's `brokenRows` (issue 12), so the project's
 * other sessions still open. Paths in messages are workspace-relative, never the machine's
 * absolute ones. Results are cached per root and revalidated against the mtimes of every file
 * read, so a request never re-parses an unchanged index.
 * @throws AppError not_found (no metadata.json), parse_error (malformed metadata.json or project.json).
 */
export async function loadWorkspace(ctx: CoreContext): Promise<LoadedWorkspace> {
  const root = ctx.workspaceRoot;
  return cache.getOrBuild(root, workspaceStamp(root), async () => {
    const workspace = await readWorkspace(root);
    const rows = workspace.projects.reduce((sum, p) => sum + p.rows.length + p.brokenRows.length, 0);
    return { value: workspace, bytes: (rows + workspace.projects.length + 1) * ROW_BYTES };
  });
}

/** Finds a project by key, or undefined. */
export function findProject(ws: LoadedWorkspace, projectKey: string): LoadedProject | undefined {
  return ws.projects.find((p) => p.projectKey === projectKey);
}


async function readWorkspace(root: string): Promise<LoadedWorkspace> {
  const metaFile = metadataPath(root);
  const metaPath = METADATA_FILE;
  let raw: string;
  try {
    raw = await fs.readFile(metaFile, "utf8");
  } catch {
    throw new AppError("not_found", `required JSON file is missing: ${metaPath}`, {
      path: metaPath,
      hint: "run `casefile prepare --workspace DIR` first",
    });
  }
  const meta = parseObject(raw, metaPath);
  for (const key of ["report_date", "status", "timezone"] as const) {
    if (typeof meta[key] !== "string") throw parseError(`${metaPath} missing string field '${key}'`, metaPath);
  }
  const schema = typeof meta.schema_version === "number" ? meta.schema_version : null;
  if (schema !== null && schema !== 2 && schema !== 3) {
    throw parseError(`Unsupported prepared workspace schema ${schema} in ${metaPath}; expected 3 (or 2, read-only)`, metaPath);
  }
  const metadata: WorkspaceMetadata = {
    schema_version: schema,
    report_date: meta.report_date as string,
    timezone: meta.timezone as string,
    status: meta.status as string,
    prepared_at: typeof meta.prepared_at === "string" ? meta.prepared_at : null,
    all_time: isObject(meta.report_window_utc) && meta.report_window_utc.start === null,
  };
  const projects: LoadedProject[] = [];
  for (const name of await listDir(projectsDir(root), { type: "dir" })) projects.push(await readProject(root, name));
  return { root, metadata, readOnly: schema !== 3, projects };
}

async function readProject(root: string, dirName: string): Promise<LoadedProject> {
  const dir = projectDir(root, dirName);
  const rel = `${PROJECTS_DIR}/${dirName}`;
  const projectPath = `${rel}/project.json`;
  // A file linked out of the project is not read (issue 35): the project reads as without it, and
  // its row says why (lib/workspace/project-problem).
  const index = () => (linksOutside(dir, SESSIONS_INDEX) ? Promise.resolve({ rows: [], brokenRows: [] }) : readIndex(sessionsIndexPath(dir), `${rel}/${SESSIONS_INDEX}`, sessionsDir(dir)));
  const raw = linksOutside(dir, PROJECT_JSON) ? null : await fs.readFile(projectJsonPath(dir), "utf8").catch(() => null);
  if (raw === null) {
    // NOTE: prompt-diary's own session-reader fixture ships without project.json; a reader
    // that refused it could not open what users have. The label comes from the key instead.
    return { projectKey: dirName, projectLabel: dirName.replace(/-[0-9a-f]{12}$/, ""), dir, ...(await index()) };
  }
  const project = parseObject(raw, projectPath);
  for (const key of ["project_key", "project_label"] as const) {
    if (typeof project[key] !== "string") throw parseError(`${projectPath} missing string field '${key}'`, projectPath);
  }
  if (project.project_key !== dirName) {
    throw parseError(`${projectPath} project_key '${String(project.project_key)}' must match directory '${dirName}'`, projectPath);
  }
  return { projectKey: dirName, projectLabel: project.project_label as string, dir, ...(await index()) };
}

/** Reads one index; `indexPath` is absolute, `relPath` the workspace-relative name used in messages. */
async function readIndex(indexPath: string, relPath: string, sessionsRoot: string): Promise<Pick<LoadedProject, "rows" | "brokenRows">> {
  let data: Buffer;
  try {
    data = await fs.readFile(indexPath);
  } catch {
    return { rows: [], brokenRows: [] };
  }
  const rows: IndexRow[] = [];
  const brokenRows: BrokenIndexRow[] = [];
  const refs = new Set<string>();
  forEachTextRecord(data, (line, lineNo) => {
    if (line.trim() === "") return;
    const where = `${relPath}:${lineNo}`;
    try {
      const row = parseRow(line, where, sessionsRoot);
      if (refs.has(row.session_ref)) throw parseError(`${where} duplicate session_ref '${row.session_ref}'`, relPath, lineNo);
      refs.add(row.session_ref);
      rows.push(row);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      brokenRows.push({ line: lineNo, session_ref: claimedRef(line), message: error.message });
    }
  });
  return { rows, brokenRows };
}

/** The session_ref a malformed row names, when it names one. */
function claimedRef(line: string): string | null {
  try {
    const value: unknown = JSON.parse(line);
    return isObject(value) && typeof value.session_ref === "string" ? value.session_ref : null;
  } catch {
    return /"session_ref"\s*:\s*"(S\d+)"/.exec(line)?.[1] ?? null;
  }
}

function parseRow(line: string, where: string, sessionsRoot: string): IndexRow {
  const value = parseObject(line, where);
  for (const key of ["session_ref", "source", "source_session_id", "session_path"]) {
    if (typeof value[key] !== "string") throw parseError(`${where} missing string field '${key}'`, where);
  }
  for (const key of ["target_start_line", "target_end_line"]) {
    if (!Number.isInteger(value[key])) throw parseError(`${where} missing integer field '${key}'`, where);
  }
  if (!Array.isArray(value.turns)) throw parseError(`${where} missing array field 'turns'`, where);
  const sessionPath = value.session_path as string;
  const parts = sessionPath.split(/[\\/]/);
  if (path.isAbsolute(sessionPath) || parts.includes("..") || parts[0] !== "sessions") {
    throw parseError(`${where} session_path must be a relative sessions/ path`, where);
  }
  const resolved = path.resolve(path.dirname(sessionsRoot), sessionPath);
  if (!resolved.startsWith(sessionsRoot + path.sep)) throw parseError(`${where} session_path must resolve under sessions/`, where);
  if ((value.target_start_line as number) < 1) throw parseError(`${where} target span start line must be positive`, where);
  if ((value.target_end_line as number) < (value.target_start_line as number)) {
    throw parseError(`${where} target span end line must be >= start line`, where);
  }
  const turns = parseTurns(value.turns as unknown[], where);
  return {
    session_ref: value.session_ref as string,
    source: value.source as string,
    source_session_id: value.source_session_id as string,
    session_path: sessionPath,
    target_start_line: value.target_start_line as number,
    target_end_line: value.target_end_line as number,
    turns,
  };
}

function parseTurns(items: unknown[], where: string): IndexRow["turns"] {
  const seen = new Set<string>();
  return items.map((item, i) => {
    const at = `${where} turns[${i + 1}]`;
    if (!isObject(item)) throw parseError(`${at} must be a JSON object`, where);
    if (typeof item.turn_ref !== "string") throw parseError(`${at} missing string field 'turn_ref'`, where);
    if (!TURN_REF.test(item.turn_ref)) throw parseError(`${at} turn_ref '${item.turn_ref}' must match T0001`, where);
    if (seen.has(item.turn_ref)) throw parseError(`${where} duplicate turn_ref '${item.turn_ref}'`, where);
    seen.add(item.turn_ref);
    for (const key of ["turn_start_line", "turn_end_line"]) {
      if (!Number.isInteger(item[key])) throw parseError(`${at} missing integer field '${key}'`, where);
    }
    const start = item.turn_start_line as number;
    const end = item.turn_end_line as number;
    if (start < 1) throw parseError(`${where} turn ${item.turn_ref} start line must be positive`, where);
    if (end < start) throw parseError(`${where} turn ${item.turn_ref} end line must be >= start line`, where);
    return { turn_ref: item.turn_ref, turn_start_line: start, turn_end_line: end };
  });
}

function parseObject(raw: string, where: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw parseError(`${where} contains invalid JSON: ${(error as Error).message}`, where);
  }
  if (!isObject(value)) throw parseError(`${where} must contain a JSON object`, where);
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseError(message: string, where: string, line?: number): AppError {
  return new AppError("parse_error", message, { path: where, ...(line ? { line } : {}) });
}
