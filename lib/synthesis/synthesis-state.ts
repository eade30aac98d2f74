/** A project's synthesis state (items, coverage, problems), cached by its inputs. */
import fs from "node:fs/promises";

import { stampedCache } from "@/lib/cache/stamped-cache";
import { processWide } from "@/lib/cache/process-wide";
import type { CoreContext } from "@/lib/context";
import { isJsonObject } from "@/lib/evidence/card-file";
import { AppError } from "@/lib/errors";
import { fileStamp } from "@/lib/fs/file-stamp";
import { linksOutside } from "@/lib/fs/paths";
import { EVIDENCE_DIR, evidenceCardPath, projectRelPath, synthesisPath } from "@/lib/fs/workspace-layout";
import { loadCommittedChains, turnId } from "@/lib/synthesis/cards";
import { envelopeObject, nextWorkItemRef, readEnvelopeFile, storedCoveredTurns, storedWorkItems, uncoveredTurns } from "@/lib/synthesis/envelope-file";
import { inspectSynthesis } from "@/lib/synthesis/inspect-synthesis";
import { getSynthesisTarget, type SynthesisTarget } from "@/lib/synthesis/resolve";
import {
  type SynthesisCounts,
  type SynthesisState,
  type SynthesisTurnState,
  type SynthesisTurnStateName,
  type SynthesisWorkItemView,
  WORK_ITEM_KINDS,
  type WorkItemKind,
} from "@/lib/synthesis/schema";

/**
 * Bytes of synthesis states kept in memory (issue 13 §4: caches bounded by bytes, not entries),
 * counted by {@link stateBytes}. The state of a project of ~20,000 turns is ~5 MB, so this keeps
 * the few projects a dashboard polls; a state past the budget is recomputed on each change-free
 * poll instead of pinned.
 */
export const SYNTHESIS_STATE_MEMORY_BYTES = 24 << 20;
const cache = stampedCache<SynthesisState>("synthesis:state", SYNTHESIS_STATE_MEMORY_BYTES);

/**
 * Everything the synthesis page shows for one project (issue 4, "Dashboard"): the envelope as
 * stored and its version (sha256 of the file bytes, or "absent"); the turn universe in index
 * order, each turn with its state and the first item covering it; the stored work items with
 * their covered turns and own problems; counts per state and kind; `uncovered_turns` exactly as
 * write_work_item would answer now; the next free ref; and prompt-diary's §3.5 completeness
 * verdict (`complete`, `sound`, `errors` verbatim; an unreadable card adds its message first).
 * Cheap to poll: the result is cached per project and reused until the workspace, the envelope
 * or any of its cards changes (inode, mtime and size of each file). Treat it as read-only.
 * @throws AppError not_found (unknown project) | parse_error (malformed workspace) | invalid_input
 * (the project's evidence folder is a link leading outside it)
 */
export async function getSynthesisState(ctx: CoreContext, projectKey: string): Promise<SynthesisState> {
  const target = await getSynthesisTarget(ctx, projectKey);
  // Cards behind a link out of the project are not even stat'ed (issue 35): the project's row says why.
  if (linksOutside(target.project.dir, EVIDENCE_DIR)) {
    const where = projectRelPath(projectKey, EVIDENCE_DIR);
    throw new AppError("invalid_input", `${where} is a link leading outside the project; its evidence is not read`, { path: where, hint: "make it a folder inside the project" });
  }
  const key = `${ctx.workspaceRoot}\u0000${projectKey}`;
  const stamp = await stampOf(target);
  const hit = cache.get(key, stamp);
  if (hit) return hit;
  const { state, envelopeBytes } = await computeState(target);
  cache.set(key, stamp, state, stateBytes(state, envelopeBytes) + 2 * stamp.length);
  return state;
}

/**
 * Estimated heap bytes of `state`, from counts rather than a walk: ~200 bytes a turn row, ~80 a
 * turn key (uncovered or covered by an item), twice the envelope's file bytes for its parsed
 * object and the items' copies of it, and two bytes a character of problem text.
 */
export function stateBytes(state: SynthesisState, envelopeBytes: number): number {
  let keys = state.uncovered_turns.length;
  let text = 0;
  for (const item of state.work_items) {
    keys += item.covered_turns.length;
    for (const issue of item.issues) text += issue.length;
  }
  for (const error of state.errors) text += error.length;
  return 200 * state.turns.length + 80 * keys + 2 * envelopeBytes + 2 * text;
}

async function computeState(target: SynthesisTarget): Promise<{ state: SynthesisState; envelopeBytes: number }> {
  const { project, universe } = target;
  const read = await readEnvelopeFile(target.envelopePath);
  const envelope = envelopeObject(read);
  const cards = await loadCommittedChains(project);
  const inspection = inspectSynthesis(read, {
    projectKey: project.projectKey,
    projectLabel: project.projectLabel,
    universe,
    committed: cards.committed,
    envelopePath: synthesisPath(project.dir),
  });
  const rawItems = envelope && Array.isArray(envelope.work_items) ? envelope.work_items : [];
  const work_items = rawItems.map((raw, index): SynthesisWorkItemView => {
    const obj = isJsonObject(raw) ? raw : null;
    const str = (v: unknown) => (typeof v === "string" ? v : null);
    return {
      index,
      work_item_ref: str(obj?.work_item_ref),
      kind: str(obj?.kind),
      title: str(obj?.title),
      covered_turns: obj ? storedCoveredTurns(obj) : [],
      item: raw,
      issues: inspection.itemIssues.get(index) ?? [],
    };
  });
  const coveringItem = new Map<string, SynthesisWorkItemView>();
  for (const view of work_items) {
    if (view.item === null || !isJsonObject(view.item)) continue;
    for (const t of view.covered_turns) if (!coveringItem.has(turnId(t.session_ref, t.turn_ref))) coveringItem.set(turnId(t.session_ref, t.turn_ref), view);
  }
  const turns = universe.map((t): SynthesisTurnState => {
    const id = turnId(t.session_ref, t.turn_ref);
    const has_chain = cards.committed.has(id);
    const by = coveringItem.get(id);
    return { ...t, has_chain, state: by ? kindState(by.kind) : has_chain ? "uncovered" : "no_chain", work_item_ref: by?.work_item_ref ?? null };
  });
  const items = storedWorkItems(envelope);
  const state: SynthesisState = {
    project_key: project.projectKey,
    project_label: project.projectLabel,
    version: read.version,
    read_only: target.readOnly,
    envelope,
    turns,
    work_items,
    counts: countStates(turns, work_items),
    uncovered_turns: uncoveredTurns(universe, new Set(coveringItem.keys())),
    next_work_item_ref: nextWorkItemRef(items) ?? "",
    complete: cards.problems.length === 0 && inspection.complete,
    sound: cards.problems.length === 0 && inspection.sound,
    errors: [...cards.problems.map((p) => p.message), ...inspection.errors],
  };
  return { state, envelopeBytes: read.state === "present" ? read.bytes.length : 0 };
}

function kindState(kind: string | null): SynthesisTurnStateName {
  if (kind === "evidence_gap_item") return "evidence_gap";
  return kind === "material_work_item" || kind === "no_material_work_item" || kind === "excluded_with_reason" ? kind : "invalid_work_item";
}

const KIND_OF_STATE: Partial<Record<SynthesisTurnStateName, WorkItemKind>> = {
  evidence_gap: "evidence_gap_item",
  material_work_item: "material_work_item",
  no_material_work_item: "no_material_work_item",
  excluded_with_reason: "excluded_with_reason",
};

function countStates(turns: SynthesisTurnState[], items: SynthesisWorkItemView[]): SynthesisCounts {
  const zero = () => Object.fromEntries(Object.keys(WORK_ITEM_KINDS).map((k) => [k, 0])) as Record<WorkItemKind, number>;
  const turns_by_kind = zero();
  const items_by_kind = zero();
  for (const t of turns) {
    const kind = KIND_OF_STATE[t.state];
    if (kind) turns_by_kind[kind] += 1;
  }
  for (const item of items) if (item.kind !== null && Object.hasOwn(items_by_kind, item.kind)) items_by_kind[item.kind as WorkItemKind] += 1;
  const uncovered = turns.filter((t) => t.state === "uncovered" || t.state === "no_chain");
  return {
    indexed_turns: turns.length,
    covered_turns: turns.length - uncovered.length,
    uncovered_turns: uncovered.length,
    no_chain_turns: uncovered.filter((t) => t.state === "no_chain").length,
    turns_by_kind,
    items_by_kind,
  };
}

/** The stat stamp of everything the state is computed from. */
async function stampOf(target: SynthesisTarget): Promise<string> {
  const files = [target.envelopePath, ...target.project.rows.map((r) => evidenceCardPath(target.project.dir, r.session_ref))];
  const stats = await Promise.all(files.map((f) => fs.stat(f).then((s) => fileStamp(s, { inode: true }), () => "-")));
  return [identityOf(target.project), ...stats].join("|");
}

/** Numbers of loaded project objects, one table per process (as the state cache: every bundle layer's copy of this module reads the same). */
const identities = processWide("synthesis:project-identities", () => ({ byProject: new WeakMap<object, number>(), next: 0 }));
/** A number per loaded project object: loadWorkspace builds new ones whenever metadata, project.json or the index changed. */
function identityOf(project: object): number {
  let id = identities.byProject.get(project);
  if (id === undefined) {
    id = identities.next += 1;
    identities.byProject.set(project, id);
  }
  return id;
}
