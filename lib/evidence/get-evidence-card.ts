/** A session's evidence card as the dashboard and `get_evidence_card` read it. */

import { cardChains, isJsonObject, readCardFile, turnChainVersion } from "@/lib/evidence/card-file";
import { inspectCard } from "@/lib/evidence/inspect-card";
import { pyRepr } from "@/lib/evidence/py-repr";
import type { EvidenceCardView, EvidenceTurnState } from "@/lib/evidence/schema";
import type { CoreContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { resolveInside } from "@/lib/fs/paths";
import { evidenceCardPath, evidenceCardRel } from "@/lib/fs/workspace-layout";
import { findProject, type LoadedProject, loadWorkspace } from "@/lib/workspace/load";
import type { IndexRow } from "@/lib/workspace/schema";

/**
 * Locates a session's card path through the index (never through an input path).
 * @throws AppError not_found for an unknown project or session (§2.5 inspector messages) | parse_error
 */
async function locateCard(ctx: CoreContext, projectKey: string, sessionRef: string): Promise<{ project: LoadedProject; row: IndexRow; cardPath: string; readOnly: boolean }> {
  const ws = await loadWorkspace(ctx);
  const project = findProject(ws, projectKey);
  if (!project) throw new AppError("not_found", `unknown project_key ${pyRepr(projectKey)} in prepared workspace`, { hint: "use the project_key from the prepared workspace" });
  const row = project.rows.find((r) => r.session_ref === sessionRef);
  if (!row) {
    throw new AppError("not_found", `unknown session_ref ${pyRepr(sessionRef)} for project ${pyRepr(projectKey)}`, { hint: "use a session_ref listed in sessions.index.jsonl" });
  }
  return { project, row, cardPath: await resolveInside(project.dir, evidenceCardRel(sessionRef)), readOnly: ws.readOnly };
}

/**
 * Everything the evidence panel and editor need for one session: the card as stored, its
 * version (sha256 of the file bytes, or "absent") to send back as `base_version`, each indexed
 * turn with its chain-or-none state and `chain_version` (to send back as `base_chain_version`), each stored chain with its problems at editor paths, and
 * the §2.5 completeness verdict (`status`, prompt-diary's `errors` verbatim).
 * `page` (for sessions with tens of thousands of turns) keeps only turns
 * `offset … offset + limit − 1` in `turns`; `turn_count`, `turns_with_chain` and
 * `other_chain_indexes` always describe every turn, and `chains` is always the whole card.
 * @throws AppError not_found (unknown project or session) | parse_error (malformed workspace)
 */
export async function getEvidenceCard(ctx: CoreContext, projectKey: string, sessionRef: string, page?: { offset: number; limit: number }): Promise<EvidenceCardView> {
  const { project, row, cardPath, readOnly } = await locateCard(ctx, projectKey, sessionRef);
  const read = await readCardFile(cardPath);
  const inspection = inspectCard(read, row, projectKey, evidenceCardPath(project.dir, sessionRef));
  const firstChain = new Map<string, number>();
  for (const entry of inspection.chains) if (entry.turn_ref !== null && !firstChain.has(entry.turn_ref)) firstChain.set(entry.turn_ref, entry.index);
  const stored = read.state === "present" && read.parseError === null ? cardChains(read.value) : [];
  const from = page ? Math.min(page.offset, row.turns.length) : 0;
  const to = page ? Math.min(row.turns.length, from + page.limit) : row.turns.length;
  const turns = row.turns.slice(from, to).map((t): EvidenceTurnState => {
    const index = firstChain.get(t.turn_ref);
    return { ...t, state: index === undefined ? "none" : "chain", chain_index: index ?? null, chain_version: turnChainVersion(stored, t.turn_ref) };
  });
  // Counted over every turn, whatever the page: the header's coverage and the "other chains" list.
  const referenced = new Set<number>();
  for (const t of row.turns) {
    const index = firstChain.get(t.turn_ref);
    if (index !== undefined) referenced.add(index);
  }
  return {
    project_key: projectKey,
    session_ref: sessionRef,
    version: read.version,
    read_only: readOnly,
    card: read.state === "present" && read.parseError === null && isJsonObject(read.value) ? read.value : null,
    chains: inspection.chains,
    turns,
    turns_offset: from,
    turn_count: row.turns.length,
    turns_with_chain: referenced.size,
    other_chain_indexes: inspection.chains.filter((c) => !referenced.has(c.index)).map((c) => c.index),
    status: inspection.status,
    errors: inspection.errors,
    card_issues: inspection.card_issues,
  };
}
