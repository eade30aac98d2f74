/** Work items an operator records from the dashboard. */
import type { CoreContext } from "@/lib/context";
import { OPERATOR_KINDS, type SynthesisError, type WriteWorkItemResult } from "@/lib/synthesis/schema";
import { submitWorkItem } from "@/lib/synthesis/write-work-item";

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : {});

/** The refusal of a kind an operator may not record from the dashboard. */
export const operatorKindError = (): SynthesisError => ({
  path: "work_item.kind",
  message: `work_item.kind must be one of ${OPERATOR_KINDS.join(", ")} for an operator item`,
  hint: "operators record evidence gaps and exclusions; narrative work items come from the synthesis agent",
});

/**
 * An operator's item from the synthesis page (issue 4, "Dashboard"): an `evidence_gap_item` or
 * an `excluded_with_reason` item over the selected turns, input `{project_key, kind,
 * covered_turns, title, reason?, confidence}`. The next free `W%04d` ref is assigned under the
 * project lock, then the item goes through exactly the write path of `write_work_item`
 * (same rules, same messages, same lock, same atomic write), so the result is the tool's:
 * `{status:"appended", …, uncovered_turns}` or `{status:"invalid", errors, uncovered_turns?}`
 * with paths under `work_item.` (e.g. `work_item.reason`, `work_item.covered_turns[0]`).
 * Another kind is refused at `work_item.kind`; an empty `reason` string counts as absent.
 * @throws AppError conflict (read-only workspace) | parse_error | io_error
 */
export async function createOperatorItem(ctx: CoreContext, input: unknown): Promise<WriteWorkItemResult> {
  const fields = asObj(input);
  if (!(OPERATOR_KINDS as readonly unknown[]).includes(fields.kind)) return { status: "invalid", errors: [operatorKindError()] };
  const workItem: Obj = {
    work_item_ref: null,
    kind: fields.kind,
    title: fields.title,
    covered_turns: fields.covered_turns,
    outcomes: [],
    terminal_states: [],
    limits: [],
    confidence: fields.confidence,
  };
  if (fields.kind === "excluded_with_reason" || (typeof fields.reason === "string" && fields.reason !== "")) workItem.reason = fields.reason;
  return submitWorkItem(ctx, fields.project_key, workItem, "assign");
}
