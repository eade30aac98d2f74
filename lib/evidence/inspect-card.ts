/** The §2.5 verdict on one evidence card, with the editor's issues. */
import { type CardRead, cardChains, envelopeProblems, isJsonObject } from "@/lib/evidence/card-file";
import { checkChainAgainstTurn } from "@/lib/evidence/check-turn";
import { parseEvidenceChain } from "@/lib/evidence/parse-chain";
import { pyRepr } from "@/lib/evidence/py-repr";
import type { EvidenceCardStatus, EvidenceChainEntry, EvidenceError } from "@/lib/evidence/schema";
import type { IndexRow } from "@/lib/workspace/schema";

/** The §2.5 verdict on one card, with editor-path issues for the dashboard. */
export type CardInspection = {
  status: EvidenceCardStatus;
  /** prompt-diary's `inspect_evidence_card` messages, verbatim and in its order. */
  errors: string[];
  /** Envelope problems at `evidence_card…` paths. */
  card_issues: EvidenceError[];
  /** Every `evidence_chains` entry with its problems at `evidence_chain…` paths. */
  chains: EvidenceChainEntry[];
  committed_turn_refs: string[];
  missing_turn_refs: string[];
};

const ENVELOPE_HINT = "a card is {schema_version: 1, project_key, session_ref, evidence_chains: [...]} matching project.json and the index row";

/**
 * Card completeness exactly as prompt-diary's `inspect_evidence_card` decides it (contract
 * §2.5): missing card; envelope (invalid JSON or a non-object reads as `{}`); per chain: not an
 * object, the stage-A messages, unknown turn, the stage-C messages, duplicate turn. A valid card
 * lacking turns is a checkpoint (`partial`, error `missing turn_ref(s): …`); any other error
 * makes it `invalid`. `cardPath` is the path the missing-card message names.
 */
export function inspectCard(read: CardRead, row: IndexRow, projectKey: string, cardPath: string): CardInspection {
  const allTurns = row.turns.map((t) => t.turn_ref);
  if (read.state === "absent") {
    return { status: "missing", errors: [`missing evidence card: ${cardPath}`], card_issues: [], chains: [], committed_turn_refs: [], missing_turn_refs: allTurns };
  }
  const value = read.parseError === null && isJsonObject(read.value) ? read.value : {};
  const problems = envelopeProblems(value, projectKey, row.session_ref);
  const errors = problems.map((p) => p.message);
  const card_issues: EvidenceError[] = problems.map((p) => ({ path: `evidence_card.${p.field}`, message: p.message, hint: ENVELOPE_HINT }));
  if (read.parseError !== null) card_issues.unshift({ path: "evidence_card", message: `the card is not valid JSON: ${read.parseError}`, hint: ENVELOPE_HINT });
  const turnByRef = new Map(row.turns.map((t) => [t.turn_ref, t]));
  const seen = new Set<string>();
  const chains = cardChains(value).map((raw, index): EvidenceChainEntry => {
    if (!isJsonObject(raw)) {
      const message = `evidence_chains[${index}] must be a JSON object`;
      errors.push(message);
      return { index, turn_ref: null, chain: raw, issues: [{ path: "evidence_chain", message, hint: "replace or delete this entry" }] };
    }
    const turnRef = typeof raw.turn_ref === "string" ? raw.turn_ref : null;
    const issues = chainIssues(raw, turnByRef);
    if (turnRef !== null) {
      if (seen.has(turnRef)) issues.push({ path: "evidence_chain.turn_ref", message: `duplicate turn_ref ${pyRepr(turnRef)}`, hint: "each turn may have only one evidence chain" });
      seen.add(turnRef);
    }
    errors.push(...issues.map((i) => i.message));
    return { index, turn_ref: turnRef, chain: raw, issues };
  });
  const missing = allTurns.filter((t) => !seen.has(t));
  const committed = allTurns.filter((t) => seen.has(t));
  if (errors.length > 0) return { status: "invalid", errors, card_issues, chains, committed_turn_refs: committed, missing_turn_refs: missing };
  if (missing.length > 0) {
    return { status: "partial", errors: [`missing turn_ref(s): ${missing.join(", ")}`], card_issues, chains, committed_turn_refs: committed, missing_turn_refs: missing };
  }
  return { status: "complete", errors: [], card_issues, chains, committed_turn_refs: committed, missing_turn_refs: [] };
}

function chainIssues(raw: Record<string, unknown>, turnByRef: Map<string, IndexRow["turns"][number]>): EvidenceError[] {
  const parsed = parseEvidenceChain(raw);
  if (!parsed.ok) return parsed.errors;
  const turn = turnByRef.get(parsed.chain.turn_ref);
  if (!turn) {
    return [
      {
        path: "evidence_chain.turn_ref",
        message: `unknown turn_ref ${pyRepr(parsed.chain.turn_ref)} in the current session index`,
        hint: "delete this chain, or re-create it for a turn listed in sessions.index.jsonl",
      },
    ];
  }
  return checkChainAgainstTurn(parsed.chain, turn);
}
