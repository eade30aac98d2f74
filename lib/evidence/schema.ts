/** The evidence contract's values and zod schemas (contract §2.3). */
import * as z from "zod";

/*
 * Evidence cards and chains: the one schema module shared by the editor form, the server
 * actions, the route, MCP and the CLI. Client-safe: imports only zod.
 * Sources: seed 000 (write_evidence) and contract §2 (prompt-diary-workspace.md).
 */

/** `trigger.type` values with their meaning (contract §2.3, `EVIDENCE_TRIGGER_TYPES`). */
export const TRIGGER_TYPES = {
  explicit_user_message: "a direct user-authored request or instruction",
  implicit_context: "user-managed context that caused the agent reaction",
  user_correction: "a user correction or redirection of previous work",
  user_approval: "a user approval or acceptance signal",
  resume_or_continue: "a user request to continue, recover, or finish work",
} as const;

/** `outcomes[].category` values (contract §2.3, `EVIDENCE_OUTCOME_CATEGORIES`). */
export const OUTCOME_CATEGORIES = {
  code_outcome: "new implementation, bug fix, refactor, API change, test added, or benchmark added",
  document_outcome: "specification written, architecture clarified, acceptance criteria added, or old document reorganized",
  decision_outcome: "technical direction chosen, tradeoff clarified, or module boundary decided",
  validation_outcome: "test passed, simulation run, benchmark result produced, bug reproduced, or issue confirmed",
  process_outcome: "workflow improved, prompt improved, agent-driving rule created, or reusable checklist generated",
  research_outcome: "options investigated, comparison made, external reference summarized, or recommendation produced",
  blocker_outcome: "problem identified but not solved, with the next action clarified",
  other: "no controlled category fits; include the suggested category and reasoning in the summary",
} as const;

/** `observed_checks[].type` values (contract §2.3, `EVIDENCE_CHECK_TYPES`). */
export const CHECK_TYPES = {
  command_output: "visible command output",
  test_output: "visible test output",
  artifact_inspection: "visible inspection of an artifact",
  user_feedback: "visible user feedback",
  other: "visible check or feedback that does not fit another check type",
} as const;

/** `terminal_state.type` values (contract §2.3, `EVIDENCE_TERMINAL_STATES`). */
export const TERMINAL_STATES = {
  material_result: "one or more material outcomes are present",
  no_material:
    "the agent reacted but produced no evidence-backed artifact, decision, validation result, clarified blocker, or reusable process result",
  blocked: "progress stopped because a dependency, failure, missing information, or required human decision prevented completion",
  interrupted: "the reaction paused or stopped before a natural result",
  failed: "the agent attempted work and the observable result failed or contradicted the intended direction",
  clarification_only: "the interaction clarified scope, constraints, or next steps but did not produce an outcome beyond clarification",
  evidence_gap: "the assigned turn is too ambiguous or incomplete to classify the result",
  other: "no controlled terminal state fits; include the reasoning in the summary",
} as const;

/** `materiality` values (contract §2.3, `EVIDENCE_MATERIALITY_VALUES`). */
export const MATERIALITY_VALUES = {
  material: "important extracted evidence for later synthesis",
  minor: "low-importance extracted evidence that should still be preserved",
  none: "no material evidence was extracted from the assigned turn",
} as const;

/** The five controlled vocabularies, keyed by the label their error message uses (contract §2.4). */
export const CONTROLLED = {
  "trigger.type": TRIGGER_TYPES,
  "outcome category": OUTCOME_CATEGORIES,
  "check type": CHECK_TYPES,
  "terminal_state.type": TERMINAL_STATES,
  materiality: MATERIALITY_VALUES,
} as const;
/** The label a controlled-value message names: `trigger.type`, `outcome category`, … */
export type ControlledLabel = keyof typeof CONTROLLED;

const values = <T extends Record<string, string>>(o: T) => Object.keys(o) as [keyof T & string, ...(keyof T & string)[]];

/** One structured rejection: the field's dotted path, the problem, a correction hint (contract §2.4). */
export type EvidenceError = { path: string; message: string; hint: string };

/** Card envelope version written by Casefile and prompt-diary (contract §2.1). */
export const CARD_SCHEMA_VERSION = 1;
/** The card version reported when no card file exists yet. */
export const ABSENT_VERSION = "absent";

const PY_SPACE = /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;
/** True when `text` is empty or only Python `str.isspace()` characters (Python `not text.strip()`). */
export const isBlankText = (text: string): boolean => PY_SPACE.test(text);

/** An inclusive, 1-based physical line span. */
export type LineSpan = { start: number; end: number };

/**
 * Parses a citation `lines` value: two ASCII-digit runs joined by `-`, start ≤ end
 * (contract §2.2). Returns null for anything else (a number, `"2"`, `"3-2"`, `" 1-2"`).
 */
export function parseCitationLines(value: unknown): LineSpan | null {
  if (typeof value !== "string") return null;
  const m = /^([0-9]+)-([0-9]+)$/.exec(value);
  if (!m) return null;
  // Compare the digit runs as integers of any length (Python ints), without BigInt parsing.
  const [a, b] = [m[1]!, m[2]!].map((d) => d.replace(/^0+(?=\d)/, "")) as [string, string];
  const ordered = a.length !== b.length ? a.length < b.length : a <= b;
  return ordered ? { start: Number(a), end: Number(b) } : null;
}

/** The canonical citation text of a span: `"7-7"`, `"45-46"` (leading zeros dropped). */
export const formatCitationLines = (span: LineSpan): string => `${span.start}-${span.end}`;

/** Contract §2.4 message and hint builders, shared by the server's stage A and the form. */
export const evidenceErrors = {
  nonEmpty: (path: string): EvidenceError => ({ path, message: `${path} must be a non-empty string`, hint: "provide a concise non-empty summary" }),
  controlled: (path: string, label: ControlledLabel): EvidenceError => ({
    path,
    message: `${path} must be a controlled ${label} value`,
    hint: `use a controlled value such as ${Object.keys(CONTROLLED[label]).sort().join(", ")}`,
  }),
  span: (path: string): EvidenceError => ({ path, message: `${path} must be a numeric line span`, hint: 'write the span as "start-end" with start <= end' }),
  materialResult: (path = "evidence_chain.outcomes"): EvidenceError => ({
    path,
    message:
      "material_result terminal_state requires at least one material outcome; empty outcomes is allowed only when terminal_state explains a non-success ending",
    hint: "add a material outcome, or use a terminal_state.type that explains the non-success ending",
  }),
};

/** Dotted path of a zod issue path under the `evidence_chain` root: `evidence_chain.outcomes[0].summary`. */
export function chainPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, key) => (typeof key === "number" ? `${acc}[${key}]` : `${acc}.${String(key)}`), "evidence_chain");
}

const fieldError = (build: (path: string) => EvidenceError) => (iss: { path?: PropertyKey[] }) => build(chainPath(iss.path ?? [])).message;
const nonEmpty = z
  .string({ error: fieldError(evidenceErrors.nonEmpty) })
  .refine((s) => !isBlankText(s), { error: fieldError(evidenceErrors.nonEmpty) });
const controlled = (label: ControlledLabel) =>
  z
    .enum(values(CONTROLLED[label]), { error: fieldError((p) => evidenceErrors.controlled(p, label)) })
    .describe(Object.entries(CONTROLLED[label]).map(([value, meaning]) => `${value}: ${meaning}`).join("; "));

/** `{"lines": "<start>-<end>"}`; the form's citation chip (contract §2.2). */
export const citationSchema = z.object({
  lines: z.string({ error: fieldError(evidenceErrors.span) }).refine((v) => parseCitationLines(v) !== null, { error: fieldError(evidenceErrors.span) }),
});
const citations = z.array(citationSchema).default([]);

/** Trigger: what drove the agent reaction. */
export const triggerSchema = z.object({
  type: controlled("trigger.type"),
  summary: nonEmpty,
  quoted_messages: z.array(z.object({ text: nonEmpty, citations })).default([]),
  citations,
});
/** One agent reaction. */
export const agentReactionSchema = z.object({ summary: nonEmpty, citations });
/** One evidence-backed outcome. */
export const outcomeSchema = z.object({ category: controlled("outcome category"), summary: nonEmpty, citations });
/** One visible check. */
export const observedCheckSchema = z.object({ type: controlled("check type"), summary: nonEmpty, citations });
/** How the turn ended. */
export const terminalStateSchema = z.object({ type: controlled("terminal_state.type"), summary: nonEmpty, citations });

/**
 * One evidence chain in canonical key order (contract §2.2), for the editor form: every shape
 * rule of stage A with the contract's messages (zod issue paths map to them through
 * {@link zodToEvidenceErrors}). Cross-field and workspace rules run on the server.
 */
export const evidenceChainSchema = z
  .object({
    turn_ref: nonEmpty,
    trigger: triggerSchema,
    agent_reactions: z.array(agentReactionSchema).default([]),
    outcomes: z.array(outcomeSchema).default([]),
    observed_checks: z.array(observedCheckSchema).default([]),
    terminal_state: terminalStateSchema,
    materiality: controlled("materiality"),
  })
  .superRefine((chain, ctx) => {
    if (chain.terminal_state.type === "material_result" && chain.outcomes.length === 0) {
      ctx.addIssue({ code: "custom", path: ["outcomes"], message: evidenceErrors.materialResult().message });
    }
  });
/** A valid chain in canonical shape (lists always present), as written to the card. */
export type EvidenceChain = z.output<typeof evidenceChainSchema>;
/** A chain as the form edits it (lists may be absent). */
export type EvidenceChainDraft = z.input<typeof evidenceChainSchema>;
/** `{lines: "a-b"}`. */
export type Citation = z.output<typeof citationSchema>;
/** Controlled values, one type per vocabulary (contract §2.3). */
export type TriggerType = keyof typeof TRIGGER_TYPES;
/** @see OUTCOME_CATEGORIES */
export type OutcomeCategory = keyof typeof OUTCOME_CATEGORIES;
/** @see CHECK_TYPES */
export type CheckType = keyof typeof CHECK_TYPES;
/** @see TERMINAL_STATES */
export type TerminalStateType = keyof typeof TERMINAL_STATES;
/** @see MATERIALITY_VALUES */
export type Materiality = keyof typeof MATERIALITY_VALUES;

/** A card on disk (contract §2.1); unknown keys are kept when Casefile rewrites it. */
export type EvidenceCard = {
  schema_version: number;
  project_key: string;
  session_ref: string;
  evidence_chains: unknown[];
  [key: string]: unknown;
};

/** Maps a form's zod error to `{path, message, hint}` items with the server's exact wording. */
export function zodToEvidenceErrors(error: z.ZodError): EvidenceError[] {
  return error.issues.map((issue) => {
    const path = chainPath(issue.path);
    const last = issue.path[issue.path.length - 1];
    if (last === "lines" || (typeof last === "number" && issue.path[issue.path.length - 2] === "citations")) return evidenceErrors.span(path.endsWith(".lines") ? path : `${path}.lines`);
    if (last === "outcomes") return evidenceErrors.materialResult(path);
    const label = controlledLabelOf(path);
    return label ? evidenceErrors.controlled(path, label) : evidenceErrors.nonEmpty(path);
  });
}

function controlledLabelOf(path: string): ControlledLabel | null {
  if (path === "evidence_chain.trigger.type") return "trigger.type";
  if (path === "evidence_chain.terminal_state.type") return "terminal_state.type";
  if (path === "evidence_chain.materiality") return "materiality";
  if (/^evidence_chain\.outcomes\[\d+\]\.category$/.test(path)) return "outcome category";
  if (/^evidence_chain\.observed_checks\[\d+\]\.type$/.test(path)) return "check type";
  return null;
}

/** `write_evidence` success (seed 000). */
export type WriteEvidenceAppended = { status: "appended"; project_key: string; session_ref: string; turn_ref: string };
/** The seeds' structured rejection; nothing was written. */
export type EvidenceInvalid = { status: "invalid"; errors: EvidenceError[] };
/** A correction based on a card version that is no longer current; nothing was written. */
export type EvidenceConflict = {
  status: "conflict";
  errors: EvidenceError[];
  current_version: string;
  /** The turn's chain version now, when the correction named a `base_chain_version`. */
  current_chain_version?: string;
};
/** `write_evidence` result, identical through every door (seed 000). */
export type WriteEvidenceResult = WriteEvidenceAppended | EvidenceInvalid;
/** The editor's create: the seed's success plus the new card version. */
export type AppendEvidenceResult = (WriteEvidenceAppended & { version: string }) | EvidenceInvalid;
/** Reviewer replace of one turn's chain. */
export type ReplaceEvidenceResult =
  | { status: "replaced"; project_key: string; session_ref: string; turn_ref: string; version: string }
  | EvidenceInvalid
  | EvidenceConflict;
/** Reviewer delete of one turn's chain. */
export type DeleteEvidenceResult =
  | { status: "deleted"; project_key: string; session_ref: string; turn_ref: string; version: string }
  | EvidenceInvalid
  | EvidenceConflict;

/**
 * Input of a reviewer replace: the chain names its turn; `base_version` is the loaded card
 * version and `base_chain_version` the loaded turn's `chain_version` (without it, any change to
 * the card is a conflict).
 */
export type ReplaceEvidenceChainInput = { project_key: string; session_ref: string; evidence_chain: unknown; base_version: string; base_chain_version?: string };
/** Input of a reviewer delete (versions as for a replace). */
export type DeleteEvidenceChainInput = { project_key: string; session_ref: string; turn_ref: string; base_version: string; base_chain_version?: string };

/** Card state per §2.5: absent, invalid, a valid checkpoint missing turns, or complete. */
export type EvidenceCardStatus = "missing" | "invalid" | "partial" | "complete";

/** One entry of the card's `evidence_chains`, with its problems at editor paths (`evidence_chain.…`). */
export type EvidenceChainEntry = { index: number; turn_ref: string | null; chain: unknown; issues: EvidenceError[] };
/** One indexed turn and whether the card holds a chain for it (the first one, by card order). */
export type EvidenceTurnState = {
  turn_ref: string;
  turn_start_line: number;
  turn_end_line: number;
  state: "chain" | "none";
  chain_index: number | null;
  /** The version of this turn's chains on the card ("absent" when none); pass it back as `base_chain_version`. */
  chain_version: string;
};

/**
 * Turns per page of the evidence panel (issue 13): a session with tens of thousands of turns
 * sent (and polled) every turn's state and took over a minute to show its first rows.
 */
export const EVIDENCE_TURNS_PAGE = 200;

/** What the evidence panel needs for one session (`getEvidenceCard`). */
export type EvidenceCardView = {
  project_key: string;
  session_ref: string;
  /** sha256 hex of the card file bytes, or "absent"; pass it back as `base_version`. */
  version: string;
  /** True on schema-2 workspaces: no writes. */
  read_only: boolean;
  /** The parsed card, or null when absent or not a JSON object. */
  card: Record<string, unknown> | null;
  chains: EvidenceChainEntry[];
  /** Indexed turns with their state: every one, or the requested page (issue 13). */
  turns: EvidenceTurnState[];
  /** Ordinal (0-based) of `turns[0]` among the session's turns. */
  turns_offset: number;
  /** Every indexed turn of the session, whatever the page. */
  turn_count: number;
  /** Indexed turns that have a chain (each turn's first chain counts), whatever the page. */
  turns_with_chain: number;
  /** Indexes of chains no indexed turn points at (chains of unknown turns, second chains of a turn). */
  other_chain_indexes: number[];
  status: EvidenceCardStatus;
  /** prompt-diary's `inspect_evidence_card` messages, verbatim (contract §2.5). */
  errors: string[];
  /** Envelope problems (path `evidence_card…`), for the panel header. */
  card_issues: EvidenceError[];
};

/** Evidence coverage of one session: turns with a chain / indexed turns. */
export type SessionEvidenceCoverage = { session_ref: string; turns_with_chain: number; indexed_turns: number; status: EvidenceCardStatus };
/** Evidence coverage of a project (`evidenceCoverage`). */
export type ProjectEvidenceCoverage = {
  project_key: string;
  sessions: SessionEvidenceCoverage[];
  turns_with_chain: number;
  indexed_turns: number;
  sessions_complete: number;
};
