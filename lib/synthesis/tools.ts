/** The synthesis domain's registered tools: write work item, operator item, state. */
import * as z from "zod";

import { contractField, contractInput } from "@/lib/tools/contract-fields";
import { defineTool } from "@/lib/tools/define-tool";
import { createOperatorItem } from "@/lib/synthesis/operator-item";
import type { SynthesisState } from "@/lib/synthesis/schema";
import { getSynthesisState } from "@/lib/synthesis/synthesis-state";
import { writeWorkItemInputSchema } from "@/lib/synthesis/tool-input";
import { writeWorkItem } from "@/lib/synthesis/write-work-item";

/** `write_work_item` (seed 001): validates one project work item and appends it. */
export const writeWorkItemTool = defineTool({
  name: "write_work_item",
  title: "Write work item",
  description:
    "Check one project-level work item and append it to the canonical project synthesis envelope projects/<project_key>/project-synthesis.json (seed 001). Input is {project_key, work_item}: one item with a unique W%04d work_item_ref, a kind (material_work_item | no_material_work_item | evidence_gap_item | excluded_with_reason), a title, covered_turns [{session_ref, turn_ref}] naming indexed turns that no committed item covers yet, and a confidence. An evidence_gap_item covers only turns with no committed evidence chain, every other kind only turns with one; material_work_item needs trigger, agent_reaction and at least one outcome or terminal_state; evidence_gap_item and excluded_with_reason carry no narrative; excluded_with_reason needs a reason; evidence_refs cite only this item's covered turns that have a chain; no secrets, credentials or absolute paths in any text. The first write creates the envelope and copies the evidence cards' quoted user messages into source_user_messages. Every result lists uncovered_turns, the indexed turns no committed item covers yet: {status:\"appended\", project_key, work_item_ref, uncovered_turns}, or {status:\"invalid\", errors:[{path, message, hint}], uncovered_turns} with nothing written: correct the item from the errors and retry. Submit items until uncovered_turns is empty. Append-only.",
  readOnly: false,
  input: writeWorkItemInputSchema,
  inputHint: "pass {project_key, work_item}",
  run: (ctx, input) => writeWorkItem(ctx, input),
});

/** The synthesis page's operator item: an evidence gap or exclusion with the next free ref. */
export const writeOperatorItemTool = defineTool({
  name: "write_operator_item",
  title: "Write operator item",
  description:
    "An operator's evidence_gap_item or excluded_with_reason over selected turns, {project_key, kind, covered_turns, title, reason?, confidence}; the next free W%04d ref is assigned and the item goes through write_work_item's rules.",
  readOnly: false,
  audience: "dashboard",
  input: contractInput(
    {
      project_key: contractField({ type: "string" }),
      kind: contractField({ type: "string", enum: ["evidence_gap_item", "excluded_with_reason"] }),
      covered_turns: contractField({ type: "array" }),
      title: contractField({ type: "string" }),
      reason: contractField({ type: "string" }),
      confidence: contractField({ type: "string" }),
    },
    ["project_key", "kind", "covered_turns", "title", "confidence"],
  ),
  inputHint: "pass {project_key, kind, covered_turns, title, reason?, confidence}",
  run: (ctx, input) => createOperatorItem(ctx, input),
});

/*
 * getSynthesisState returns the same object while nothing on disk changed (it is stat-cached);
 * the tool keeps that identity for its result, so the polled HTTP door can cache its encoding.
 */
const okStates = new WeakMap<SynthesisState, { status: "ok" } & SynthesisState>();

/**
 * `get_synthesis_state` (dashboard, issue 8 item 1): the synthesis page's state of a project —
 * `{status:"ok", ...SynthesisState}` (version, read_only, envelope, turns, work_items, counts,
 * uncovered_turns, next_work_item_ref); the same object while the state is unchanged. Read-only.
 * @throws AppError not_found for an unknown project_key.
 */
export const getSynthesisStateTool = defineTool({
  name: "get_synthesis_state",
  title: "Get synthesis state",
  description: "The project synthesis as the dashboard shows it: envelope version and content, per-turn coverage, work items, counts, uncovered_turns and the next operator work_item_ref. Read-only.",
  readOnly: true,
  audience: "dashboard",
  input: z.object({ project_key: z.string().min(1, "project_key must be a non-empty string") }),
  inputHint: "pass {project_key}",
  run: async (ctx, input) => {
    const state = await getSynthesisState(ctx, input.project_key);
    let result = okStates.get(state);
    if (!result) okStates.set(state, (result = { status: "ok", ...state }));
    return result;
  },
});

export const synthesisTools = [writeWorkItemTool, writeOperatorItemTool, getSynthesisStateTool];
