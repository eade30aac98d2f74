/** The evidence domain's registered tools: write, create, replace, delete, card and coverage. */
import * as z from "zod";

import { deleteEvidenceChain, replaceEvidenceChain } from "@/lib/evidence/corrections";
import { evidenceCoverage } from "@/lib/evidence/coverage";
import { getEvidenceCard } from "@/lib/evidence/get-evidence-card";
import { writeEvidenceInputSchema } from "@/lib/evidence/tool-input";
import { appendEvidenceChain, writeEvidence } from "@/lib/evidence/write-evidence";
import { contractField, contractInput } from "@/lib/tools/contract-fields";
import { defineTool } from "@/lib/tools/define-tool";
import { wholeNumber } from "@/lib/tools/input-fields";

const EVIDENCE_HINT = "pass {project_key, session_ref, evidence_chain}";

/** `write_evidence` (seed 000): validates one chain in the contract's three stages and appends it. */
export const writeEvidenceTool = defineTool({
  name: "write_evidence",
  title: "Write evidence",
  description:
    "Check one draft evidence chain and write it to the canonical session evidence card projects/<project_key>/evidence/<session_ref>.json. Input is one chain for the assigned turn_ref, not a full card; the card is created from project.json and the session index row when missing, otherwise validated and appended to. A card holds at most one chain per turn_ref. Citations are {\"lines\": \"<start>-<end>\"} spans inside the indexed turn; material outcomes must cite agent reaction evidence, not only trigger evidence; terminal_state is required, and material_result needs at least one outcome. Returns {status:\"appended\", project_key, session_ref, turn_ref}, or {status:\"invalid\", errors:[{path, message, hint}]} with nothing written: correct the draft from the errors and retry. Append-only.",
  readOnly: false,
  input: writeEvidenceInputSchema,
  inputHint: EVIDENCE_HINT,
  run: (ctx, input) => writeEvidence(ctx, input),
});

/** The dashboard's create: `write_evidence`'s append, returning the new card `version` too. */
export const createEvidenceChainTool = defineTool({
  name: "create_evidence_chain",
  title: "Create evidence chain",
  description: "Reviewer create of one turn's evidence chain (write_evidence's rules), returning the new card version.",
  readOnly: false,
  audience: "dashboard",
  input: writeEvidenceInputSchema,
  inputHint: EVIDENCE_HINT,
  run: (ctx, input) => appendEvidenceChain(ctx, input),
});

const correctionFields = {
  project_key: contractField({ type: "string" }),
  session_ref: contractField({ type: "string" }),
  base_version: contractField({ type: "string", description: "The card version the correction is based on (get_evidence_card)." }),
  base_chain_version: contractField({
    type: "string",
    description: "The turn's chain_version the correction is based on (get_evidence_card); with it, only a change to this turn's chain is a conflict.",
  }),
};

/** Reviewer replace of one turn's chain, refused with `conflict` when `base_version` is stale. */
export const replaceEvidenceChainTool = defineTool({
  name: "replace_evidence_chain",
  title: "Replace evidence chain",
  description: "Reviewer correction: replace the committed chain of evidence_chain.turn_ref; refused with status conflict when the turn's chain changed since base_chain_version (or, without it, when the card changed since base_version).",
  readOnly: false,
  audience: "dashboard",
  input: contractInput({ ...correctionFields, evidence_chain: contractField({ type: "object" }) }, ["project_key", "session_ref", "evidence_chain", "base_version"]),
  inputHint: "pass {project_key, session_ref, evidence_chain, base_version, base_chain_version}",
  run: (ctx, input) => replaceEvidenceChain(ctx, input),
});

/** Reviewer delete of one turn's chain, refused with `conflict` when `base_version` is stale. */
export const deleteEvidenceChainTool = defineTool({
  name: "delete_evidence_chain",
  title: "Delete evidence chain",
  description: "Reviewer correction: delete the committed chain of turn_ref; refused with status conflict when the turn's chain changed since base_chain_version (or, without it, when the card changed since base_version).",
  readOnly: false,
  audience: "dashboard",
  input: contractInput({ ...correctionFields, turn_ref: contractField({ type: "string" }) }, ["project_key", "session_ref", "turn_ref", "base_version"]),
  inputHint: "pass {project_key, session_ref, turn_ref, base_version, base_chain_version}",
  run: (ctx, input) => deleteEvidenceChain(ctx, input),
});

/** The evidence card view of one session: chains with their problems, turn states, version. */
export const getEvidenceCardTool = defineTool({
  name: "get_evidence_card",
  title: "Get evidence card",
  description: "The evidence card of one session as the dashboard shows it: chains, per-turn state, card status and version. Read-only.",
  readOnly: true,
  audience: "dashboard",
  input: z.object({
    project_key: z.string().min(1),
    session_ref: z.string().min(1),
    /** Issue 13: a page of the turns (the panel of a session with tens of thousands of them); without both, every turn. */
    turns_offset: wholeNumber().min(0).optional(),
    turns_limit: wholeNumber().min(1).max(5000).optional(),
  }),
  inputHint: "pass {project_key, session_ref} and optionally turns_offset ≥ 0 with turns_limit 1-5000",
  run: (ctx, input) =>
    getEvidenceCard(ctx, input.project_key, input.session_ref, input.turns_limit === undefined ? undefined : { offset: input.turns_offset ?? 0, limit: input.turns_limit }),
});

/**
 * `get_evidence_coverage` (dashboard, issue 8 item 1): evidence coverage of a project and each of
 * its sessions for the project page — `{status:"ok", project_key, sessions, turns_with_chain,
 * indexed_turns, sessions_complete}` (ProjectEvidenceCoverage). Read-only.
 * @throws AppError not_found for an unknown project_key.
 */
export const getEvidenceCoverageTool = defineTool({
  name: "get_evidence_coverage",
  title: "Get evidence coverage",
  description: "Evidence coverage of one project: per session, turns with a committed chain out of indexed turns; totals and complete sessions. Read-only.",
  readOnly: true,
  audience: "dashboard",
  input: z.object({ project_key: z.string().min(1, "project_key must be a non-empty string") }),
  inputHint: "pass {project_key}",
  run: async (ctx, input) => ({ status: "ok" as const, ...(await evidenceCoverage(ctx, input.project_key)) }),
});

export const evidenceTools = [writeEvidenceTool, createEvidenceChainTool, replaceEvidenceChainTool, deleteEvidenceChainTool, getEvidenceCardTool, getEvidenceCoverageTool];
