/** Where a session's evidence card lives and whether it may be written, resolved through the index. */
import fs from "node:fs/promises";

import type { TurnSpan } from "@/lib/evidence/check-turn";
import { parseEvidenceChain, type ParsedChain } from "@/lib/evidence/parse-chain";
import { pyRepr } from "@/lib/evidence/py-repr";
import type { EvidenceError } from "@/lib/evidence/schema";
import { type CoreContext, traceStage } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { resolveInside } from "@/lib/fs/paths";
import { evidenceCardRel, projectJsonPath, projectRelPath } from "@/lib/fs/workspace-layout";
import { findProject, type LoadedProject, loadWorkspace } from "@/lib/workspace/load";
import type { IndexRow } from "@/lib/workspace/schema";

/** Where one session's card lives, resolved through the index (seed 000 "Workspace Resolution"). */
export type EvidenceTarget = {
  project: LoadedProject;
  row: IndexRow;
  /** Absolute, realpath-checked `projects/<key>/evidence/<session_ref>.json`. */
  cardPath: string;
  /** The same path relative to the workspace root, for messages. */
  relPath: string;
};

/** The resolved card target, or stage B's first failure. */
export type TargetResult = { ok: true; target: EvidenceTarget } | { ok: false; error: EvidenceError };

const PROJECT_HINT = "use the project_key from the prepared workspace";
const SESSION_HINT = "use a session_ref listed in sessions.index.jsonl";

/**
 * Stage B up to the session (contract §2.4, first failure alone): unknown project, a project
 * without `project.json` (seed 000: the project dir "contains project.json"), unknown session.
 * Non-string keys (possible through the JSON doors) are reported at their field.
 * @throws AppError parse_error from the workspace loader (contract §1.10 hard errors).
 */
export async function resolveEvidenceTarget(ctx: CoreContext, projectKey: unknown, sessionRef: unknown): Promise<TargetResult> {
  if (typeof projectKey !== "string") return fail("project_key", "project_key must be a string", PROJECT_HINT);
  const project = findProject(await loadWorkspace(ctx), projectKey);
  if (!project) return fail("project_key", `unknown project_key ${pyRepr(projectKey)}`, PROJECT_HINT);
  if (!(await isFile(projectJsonPath(project.dir)))) {
    return fail("project_key", `project ${pyRepr(projectKey)} has no project.json in the prepared workspace`, "re-run casefile prepare to restore project.json");
  }
  if (typeof sessionRef !== "string") return fail("session_ref", "session_ref must be a string", SESSION_HINT);
  const row = project.rows.find((r) => r.session_ref === sessionRef);
  if (!row) return fail("session_ref", `unknown session_ref ${pyRepr(sessionRef)} for project ${pyRepr(projectKey)}`, SESSION_HINT);
  const relInProject = evidenceCardRel(sessionRef);
  const cardPath = await resolveInside(project.dir, relInProject);
  ctx.trace?.policy("path.containment", "allow", projectRelPath(projectKey, relInProject));
  return { ok: true, target: { project, row, cardPath, relPath: projectRelPath(projectKey, relInProject) } };
}

/** Stage B's turn lookup: the row's `turns[]` item, or the contract's unknown-turn error. */
export function findTurn(row: IndexRow, turnRef: string): { ok: true; turn: TurnSpan } | { ok: false; error: EvidenceError } {
  const turn = row.turns.find((t) => t.turn_ref === turnRef);
  if (turn) return { ok: true, turn };
  return fail("evidence_chain.turn_ref", `unknown turn_ref ${pyRepr(turnRef)} in the session index`, "use the assigned turn_ref from the target turn");
}

/** Stage B's last check: the card already holds a chain for this turn. */
export const duplicateTurnError = (turnRef: string): EvidenceError => ({
  path: "evidence_chain.turn_ref",
  message: `turn_ref ${pyRepr(turnRef)} already has a committed evidence chain (duplicate)`,
  hint: "each turn may have only one evidence chain",
});

/**
 * Refuses writes to a schema-2 workspace (opened read-only, issue 2).
 * @throws AppError conflict when the workspace is read-only.
 */
export async function assertWritable(ctx: CoreContext): Promise<void> {
  const ws = await loadWorkspace(ctx);
  ctx.trace?.policy("workspace.writable", ws.readOnly ? "deny" : "allow", `schema ${ws.metadata.schema_version ?? "unknown"} workspace`);
  if (ws.readOnly) {
    throw new AppError("conflict", `workspace ${ws.root} is prepared with schema ${ws.metadata.schema_version ?? "unknown"} and is read-only; evidence cannot be written`, {
      hint: "prepare a schema-3 workspace (casefile prepare --workspace DIR --force) to write evidence",
    });
  }
}

function fail(pathName: string, message: string, hint: string): { ok: false; error: EvidenceError } {
  return { ok: false, error: { path: pathName, message, hint } };
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await fs.stat(p)).isFile();
  } catch {
    return false;
  }
}

/**
 * The checks every chain write runs before taking the card lock, in the contract's order
 * (§2.4): the chain input's shape, stage A (all parse errors), then stage B's project,
 * session and turn lookups (first failure alone). Each stage is recorded on the call's trace
 * (`validation.input`, `validation.stage_a`, and `validation.stage_b` when it fails here; the
 * caller records stage B's success after its checks under the card lock).
 */
export async function prepareChainWrite(
  ctx: CoreContext,
  projectKey: unknown,
  sessionRef: unknown,
  rawChain: unknown,
  firstError: EvidenceError | null,
): Promise<{ ok: true; chain: ParsedChain; target: EvidenceTarget; turn: TurnSpan } | { ok: false; errors: EvidenceError[] }> {
  const { trace } = ctx;
  if (firstError) return { ok: false, errors: [...traceStage(trace, "input", [firstError])] };
  traceStage(trace, "input", []);
  const parsed = parseEvidenceChain(rawChain);
  if (!parsed.ok) return { ok: false, errors: [...traceStage(trace, "stage_a", parsed.errors)] };
  traceStage(trace, "stage_a", []);
  const resolved = await resolveEvidenceTarget(ctx, projectKey, sessionRef);
  if (!resolved.ok) return { ok: false, errors: [...traceStage(trace, "stage_b", [resolved.error])] };
  const turn = findTurn(resolved.target.row, parsed.chain.turn_ref);
  if (!turn.ok) return { ok: false, errors: [...traceStage(trace, "stage_b", [turn.error])] };
  return { ok: true, chain: parsed.chain, target: resolved.target, turn: turn.turn };
}
