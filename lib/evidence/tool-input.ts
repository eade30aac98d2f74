/** The JSON Schema advertised for `write_evidence`'s input. */
import * as z from "zod";

import { contractField, contractInput } from "@/lib/tools/contract-fields";

import { evidenceChainSchema } from "@/lib/evidence/schema";

/** Drops the `$schema` key so a generated JSON Schema can be embedded as a property schema. */
function embeddable(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _drop, ...rest } = schema;
  return rest;
}

/**
 * MCP input schema of `write_evidence`: seed 000's `{project_key, session_ref, evidence_chain}`,
 * advertised with the chain's full JSON Schema (types, enums, canonical key order).
 * NOTE: every property is a contract field (any value passes the registry): a strict schema would turn the contract's `{path, message, hint}` rejections into a generic
 * "Input validation error", breaking door parity. `writeEvidence` validates everything.
 */
export const writeEvidenceInputSchema = contractInput(
  {
  project_key: contractField({ type: "string", description: "Project directory name under projects/ in the prepared workspace." }),
  session_ref: contractField({ type: "string", description: "Session handle from sessions.index.jsonl, e.g. S0001." }),
  evidence_chain: contractField({
    ...embeddable(z.toJSONSchema(evidenceChainSchema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>),
    description:
      'One evidence chain (not a full card) for the assigned turn_ref. Citations are {"lines": "<start>-<end>"} spans inside the indexed turn; material outcomes must cite agent reaction lines, not only trigger lines.',
  }),
  },
  ["project_key", "session_ref", "evidence_chain"],
);
