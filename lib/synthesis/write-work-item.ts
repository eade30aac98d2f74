/** `write_work_item`: one work item validated and appended to its project's envelope. */
import { type CallTrace, type CoreContext, traceStage } from "@/lib/context";
import { AppError, isAppError } from "@/lib/errors";
import { withFileLock } from "@/lib/fs/file-lock";
import { writeFileAtomic } from "@/lib/fs/atomic-write";
import { buildSourceUserMessages, loadCommittedChains, turnId } from "@/lib/synthesis/cards";
import { checkWorkItemContent } from "@/lib/synthesis/check-content";
import {
  coveredIds,
  envelopeObject,
  existingEnvelopeErrors,
  newEnvelope,
  nextWorkItemRef,
  readEnvelopeFile,
  serializeEnvelope,
  storedWorkItems,
  uncoveredTurns,
} from "@/lib/synthesis/envelope-file";
import { type ParsedWorkItem, parseWorkItem, workItemInputError, workItemToJson } from "@/lib/synthesis/parse-work-item";
import { assertSynthesisWritable, resolveSynthesisTarget, type SynthesisTarget } from "@/lib/synthesis/resolve";
import type { SynthesisError, TurnKey, WorkItemInvalid, WriteWorkItemResult } from "@/lib/synthesis/schema";
import { validateAgainstWorkspace } from "@/lib/synthesis/validate-workspace";

/** How a submission names its ref: as given (agents), or the next free one under the lock (operators). */
export type RefPolicy = "given" | "assign";

/** Stands in for an assigned ref during stage A; replaced under the lock. */
export const PLACEHOLDER_REF = "W0000";

const invalid = (errors: SynthesisError[], uncovered?: TurnKey[]): WorkItemInvalid =>
  uncovered ? { status: "invalid", errors, uncovered_turns: uncovered } : { status: "invalid", errors };

/**
 * `write_work_item` (seed 001, contract §3.4): checks one work item and appends it to
 * `projects/<project_key>/project-synthesis.json`. Returns `{status:"appended", project_key,
 * work_item_ref, uncovered_turns}` or `{status:"invalid", errors:[{path, message, hint}],
 * uncovered_turns?}`; a rejection carries `uncovered_turns` whenever the project and its
 * envelope can be read, so the agent always learns what is left. See {@link submitWorkItem}.
 * @throws AppError conflict (read-only workspace) | parse_error (malformed workspace or card) | io_error
 */
export function writeWorkItem(ctx: CoreContext, input: unknown): Promise<WriteWorkItemResult> {
  const fields = typeof input === "object" && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  return submitWorkItem(ctx, fields.project_key, fields.work_item, "given");
}

/**
 * The one write path of work items, for agents and operators alike. Order: Casefile's input
 * check (one object); stage A (all errors, contract order) plus the content rule (secrets,
 * absolute paths); stage B's unknown project (alone); then under the project's lock (in-process
 * queue plus a lock file that excludes other processes), against the freshly read envelope and
 * cards: the existing envelope's soundness (alone), then stage B's collected checks. A sound
 * item is appended with an atomic replace; the first write creates the envelope from
 * project.json and populates `source_user_messages` once from the cards. Rejections write
 * nothing.
 * @throws AppError conflict | parse_error | io_error
 */
export async function submitWorkItem(ctx: CoreContext, projectKey: unknown, rawItem: unknown, refs: RefPolicy): Promise<WriteWorkItemResult> {
  await assertSynthesisWritable(ctx);
  const { trace } = ctx;
  const inputError = workItemInputError(rawItem);
  let item: ParsedWorkItem | null = null;
  let errors: SynthesisError[] = [];
  traceStage(trace, "input", inputError ? [inputError] : []);
  if (inputError) errors = [inputError];
  else {
    const draft = refs === "assign" ? { ...(rawItem as object), work_item_ref: PLACEHOLDER_REF } : rawItem;
    const parsed = parseWorkItem(draft);
    const content = await checkWorkItemContent(draft);
    traceStage(trace, "stage_a", parsed.ok ? [] : parsed.errors);
    traceStage(trace, "content", content);
    errors = [...(parsed.ok ? [] : parsed.errors), ...content];
    if (parsed.ok) item = parsed.item;
  }
  if (errors.length > 0 || !item) return invalid(errors, await uncoveredIfReadable(ctx, projectKey));
  const resolved = await resolveSynthesisTarget(ctx, projectKey);
  if (!resolved.ok) return invalid([...traceStage(trace, "stage_b", [resolved.error])]);
  return commitUnderLock(resolved.target, item, refs, ctx.trace);
}

function commitUnderLock(target: SynthesisTarget, parsed: ParsedWorkItem, refs: RefPolicy, trace: CallTrace | undefined): Promise<WriteWorkItemResult> {
  const { project, universe, envelopePath } = target;
  return withFileLock(envelopePath, async (lock) => {
    const read = await readEnvelopeFile(envelopePath);
    const envelope = envelopeObject(read);
    const items = storedWorkItems(envelope);
    const covered = coveredIds(items);
    const existing = existingEnvelopeErrors(read, target.relPath, project.projectKey, project.projectLabel);
    if (existing.length > 0) return invalid([...traceStage(trace, "stage_b", existing)], read.state === "present" && read.parseError === null ? uncoveredTurns(universe, covered) : undefined);
    const cards = await loadCommittedChains(project);
    if (cards.problems.length > 0) {
      throw new AppError("parse_error", cards.problems[0]!.message, { path: cards.problems[0]!.path, hint: "repair the evidence card, then retry" });
    }
    const ref = refs === "assign" ? nextWorkItemRef(items) : parsed.work_item_ref;
    if (ref === null) return invalid([...traceStage(trace, "stage_b", [{ path: "work_item.work_item_ref", message: "every work_item_ref from W0001 to W9999 is already used in the envelope", hint: "a project holds at most 9999 work items" }])]);
    const item = { ...parsed, work_item_ref: ref };
    const errors = validateAgainstWorkspace(item, {
      universe: new Set(universe.map((t) => turnId(t.session_ref, t.turn_ref))),
      committed: cards.committed,
      alreadyCovered: covered,
      existingRefs: new Set(items.map((i) => (typeof i.work_item_ref === "string" ? i.work_item_ref : ""))),
    });
    if (traceStage(trace, "stage_b", errors).length > 0) return invalid(errors, uncoveredTurns(universe, covered));
    const base = envelope ?? newEnvelope(project.projectKey, project.projectLabel, buildSourceUserMessages(cards.chains));
    const next = { ...base, work_items: [...items, workItemToJson(item)] };
    await lock.assertHeld();
    await writeFileAtomic(envelopePath, serializeEnvelope(next));
    trace?.artifact(target.relPath);
    for (const t of item.covered_turns) covered.add(turnId(t.session_ref, t.turn_ref));
    return { status: "appended", project_key: project.projectKey, work_item_ref: ref, uncovered_turns: uncoveredTurns(universe, covered) };
  });
}

/**
 * `uncovered_turns` for a stage-A rejection, read without the lock (a report, not a decision):
 * undefined when the project or its envelope cannot be read. Like prompt-diary, stage A never
 * fails on the workspace, so loader errors are swallowed here.
 */
async function uncoveredIfReadable(ctx: CoreContext, projectKey: unknown): Promise<TurnKey[] | undefined> {
  try {
    const resolved = await resolveSynthesisTarget(ctx, projectKey);
    if (!resolved.ok) return undefined;
    const read = await readEnvelopeFile(resolved.target.envelopePath);
    if (read.state === "present" && read.parseError !== null) return undefined;
    return uncoveredTurns(resolved.target.universe, coveredIds(storedWorkItems(envelopeObject(read))));
  } catch (error) {
    if (isAppError(error)) return undefined;
    throw error;
  }
}
