"use server";

import type { OperatorItemInput, WriteWorkItemResult } from "@/lib/synthesis/schema";
import { writeOperatorItemTool } from "@/lib/synthesis/tools";
import { invokeToolForUi } from "@/lib/tools/registry";
import { type ActionResult, runAction } from "@/server/action";
import { getCoreContext } from "@/server/core";

/*
 * The synthesis page's server action (issue 4): one registered tool call (door `ui`). A validation
 * failure is the value `{ok: true, data: {status:"invalid", errors, uncovered_turns?}}`, so the
 * form shows each error at the field its `path` names (`work_item.reason`, `work_item.title`,
 * `work_item.covered_turns[i]`); `ok: false` is for AppErrors (read-only workspace, malformed
 * workspace, lock timeout) only.
 */

/**
 * Records an operator's `evidence_gap_item` or `excluded_with_reason` over the selected turns,
 * with the next free W%04d ref, through write_work_item's own validation and write path.
 */
export async function createOperatorItemAction(input: OperatorItemInput): Promise<ActionResult<WriteWorkItemResult>> {
  return runAction(() => invokeToolForUi(getCoreContext(), writeOperatorItemTool, input));
}
