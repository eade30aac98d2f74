/** The JSON Schema advertised for `write_work_item`'s input. */
import * as z from "zod";

import { contractField, contractInput } from "@/lib/tools/contract-fields";

import { workItemSchema } from "@/lib/synthesis/schema";

/** Drops the `$schema` key so a generated JSON Schema can be embedded as a property schema. */
function embeddable(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _drop, ...rest } = schema;
  return rest;
}

/**
 * MCP input schema of `write_work_item`: seed 001's `{project_key, work_item}`, advertised with
 * the work item's full JSON Schema (types, enums with their meanings, canonical key order).
 * NOTE: every property is a contract field (any value passes the registry), as for write_evidence: a strict schema would turn the contract's `{path, message, hint}`
 * rejections into a generic "Input validation error", breaking door parity.
 */
export const writeWorkItemInputSchema = contractInput(
  {
  project_key: contractField({ type: "string", description: "Project directory name under projects/ in the prepared workspace." }),
  work_item: contractField({
    ...embeddable(z.toJSONSchema(workItemSchema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>),
    description:
      "One work item. covered_turns name indexed turns {session_ref, turn_ref} that no committed item covers yet; evidence_gap_item covers only turns without an evidence chain, every other kind only turns with one; evidence_gap_item and excluded_with_reason carry no trigger, agent_reaction, outcomes or terminal_states; excluded_with_reason needs a reason.",
  }),
  },
  ["project_key", "work_item"],
);
