/** Where a project's synthesis envelope lives and whether it may be written. */
import fs from "node:fs/promises";

import type { CoreContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { pyRepr } from "@/lib/evidence/py-repr";
import { resolveInside } from "@/lib/fs/paths";
import { projectJsonPath, projectRelPath, SYNTHESIS_FILE } from "@/lib/fs/workspace-layout";
import type { SynthesisError, TurnKey } from "@/lib/synthesis/schema";
import { stageBErrors } from "@/lib/synthesis/validate-workspace";
import { findProject, type LoadedProject, loadWorkspace } from "@/lib/workspace/load";


/** One indexed turn with its span, in index order. */
export type IndexedTurn = TurnKey & { turn_start_line: number; turn_end_line: number };

/** A project resolved for synthesis (seed 001 "Workspace Resolution"). */
export type SynthesisTarget = {
  project: LoadedProject;
  /** Absolute, realpath-checked `projects/<key>/project-synthesis.json`. */
  envelopePath: string;
  /** The same path relative to the workspace root, for messages. */
  relPath: string;
  /** Every `(session_ref, turn_ref)` of `sessions.index.jsonl`, in index order (§3.5). */
  universe: IndexedTurn[];
  /** True on schema-2 workspaces. */
  readOnly: boolean;
};

/** The resolved project, or the stage-B error that refuses it. */
export type SynthesisTargetResult = { ok: true; target: SynthesisTarget } | { ok: false; error: SynthesisError };

const PROJECT_HINT = "use the project_key from the prepared workspace";

/**
 * Stage B's first check (contract §3.4, alone): the project exists in the prepared workspace
 * and has `project.json` (seed 001: the tool "verifies it against project.json"). A project_key
 * that is not a non-empty string is reported at `project_key` rather than thrown.
 * @throws AppError parse_error | not_found from the workspace loader (contract §1.10 hard errors).
 */
export async function resolveSynthesisTarget(ctx: CoreContext, projectKey: unknown): Promise<SynthesisTargetResult> {
  if (typeof projectKey !== "string" || projectKey === "") {
    return { ok: false, error: { path: "project_key", message: "project_key must be a non-empty string", hint: PROJECT_HINT } };
  }
  const ws = await loadWorkspace(ctx);
  const project = findProject(ws, projectKey);
  if (!project) return { ok: false, error: stageBErrors.unknownProject(projectKey) };
  if (!(await isFile(projectJsonPath(project.dir)))) {
    return {
      ok: false,
      error: { path: "project_key", message: `project ${pyRepr(projectKey)} has no project.json in the prepared workspace`, hint: "re-run casefile prepare to restore project.json" },
    };
  }
  const universe = project.rows.flatMap((row) => row.turns.map((t) => ({ session_ref: row.session_ref, ...t })));
  const envelopePath = await resolveInside(project.dir, SYNTHESIS_FILE);
  ctx.trace?.policy("path.containment", "allow", projectRelPath(projectKey, SYNTHESIS_FILE));
  return { ok: true, target: { project, envelopePath, relPath: projectRelPath(projectKey, SYNTHESIS_FILE), universe, readOnly: ws.readOnly } };
}

/**
 * Like {@link resolveSynthesisTarget}, but throws: for dashboard reads.
 * @throws AppError not_found (unknown project) | parse_error
 */
export async function getSynthesisTarget(ctx: CoreContext, projectKey: string): Promise<SynthesisTarget> {
  const resolved = await resolveSynthesisTarget(ctx, projectKey);
  if (!resolved.ok) throw new AppError("not_found", resolved.error.message, { hint: resolved.error.hint });
  return resolved.target;
}

/**
 * Refuses writes to a schema-2 workspace (opened read-only, issue 2).
 * @throws AppError conflict when the workspace is read-only.
 */
export async function assertSynthesisWritable(ctx: CoreContext): Promise<void> {
  const ws = await loadWorkspace(ctx);
  ctx.trace?.policy("workspace.writable", ws.readOnly ? "deny" : "allow", `schema ${ws.metadata.schema_version ?? "unknown"} workspace`);
  if (ws.readOnly) {
    throw new AppError("conflict", `workspace ${ws.root} is prepared with schema ${ws.metadata.schema_version ?? "unknown"} and is read-only; work items cannot be written`, {
      hint: "prepare a schema-3 workspace (casefile prepare --workspace DIR --force) to write project synthesis",
    });
  }
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await fs.stat(p)).isFile();
  } catch {
    return false;
  }
}
