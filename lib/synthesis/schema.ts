/** The synthesis contract's values and zod schemas (contract §3.3). */
import * as z from "zod";

import { OUTCOME_CATEGORIES, TERMINAL_STATES } from "@/lib/evidence/schema";

/*
 * Project synthesis: the one schema module for the envelope, work items, their kinds and the
 * results of write_work_item, shared by the synthesis page, the server actions, MCP, HTTP and
 * the CLI. Client-safe: imports only zod and the evidence schema (whose outcome categories and
 * terminal states work items reuse, seed 001 "reuse only, no new values").
 * Sources: seed 001 (write_work_item) and contract §3 (prompt-diary-workspace.md).
 */

export { OUTCOME_CATEGORIES, TERMINAL_STATES };

/** Work-item kinds with their meaning (contract §3.3, `PROJECT_WORK_ITEM_KINDS`). */
export const WORK_ITEM_KINDS = {
  material_work_item: "grouped work that produced material progress",
  no_material_work_item: "reportable low-value or negative turns with no material output, including the trivial-turn bucket",
  evidence_gap_item: "indexed turns that have no extractable evidence (no committed evidence chain)",
  excluded_with_reason: "turns intentionally left out of reportable work items, with a reason",
} as const;
/** One of the four work-item kinds. */
export type WorkItemKind = keyof typeof WORK_ITEM_KINDS;

/** The two kinds an operator records from the dashboard (issue 4, "Dashboard"). */
export const OPERATOR_KINDS = ["evidence_gap_item", "excluded_with_reason"] as const;
/** A kind an operator may record. */
export type OperatorKind = (typeof OPERATOR_KINDS)[number];

/** Confidence of a work item or outcome (contract §3.2). */
export const CONFIDENCE_VALUES = ["high", "medium", "low"] as const;
/** `high`, `medium` or `low`. */
export type Confidence = (typeof CONFIDENCE_VALUES)[number];

/** The controlled vocabularies of §3.4, keyed by the label their error message uses. */
export const SYNTHESIS_CONTROLLED = {
  "work item kind": Object.keys(WORK_ITEM_KINDS),
  "outcome category": Object.keys(OUTCOME_CATEGORIES),
  "terminal_state type": Object.keys(TERMINAL_STATES),
  confidence: [...CONFIDENCE_VALUES],
} as const satisfies Record<string, readonly string[]>;
/** The label a controlled-value message names (`work item kind`, `outcome category`, …). */
export type SynthesisControlledLabel = keyof typeof SYNTHESIS_CONTROLLED;

/** `^W\d{4}$` as Python's `re` reads it: `\d` is any Unicode decimal digit (contract §3.2). */
export const WORK_ITEM_REF_PATTERN = /^W\p{Nd}{4}$/u;

/** Envelope version written by Casefile and prompt-diary (contract §3.1). */
export const ENVELOPE_SCHEMA_VERSION = 1;

/** One structured rejection: dotted path, problem, correction hint (contract §3.4). */
export type SynthesisError = { path: string; message: string; hint: string };

/** One indexed turn, as work items cite it (whole turns, not line spans; contract §8.5). */
export type TurnKey = { session_ref: string; turn_ref: string };

const ref = z.string().min(1);
/** `{session_ref, turn_ref}`. */
export const turnRefSchema = z.object({ session_ref: ref.describe("e.g. S0001"), turn_ref: ref.describe("e.g. T0001") });
const refs = z.array(turnRefSchema).default([]);
const text = z.string().trim().min(1);
const enumOf = <T extends readonly [string, ...string[]]>(values: T, meanings?: Record<string, string>) =>
  z.enum(values).describe(meanings ? values.map((v) => `${v}: ${meanings[v]}`).join("; ") : values.join(", "));
const keys = <T extends Record<string, string>>(o: T) => Object.keys(o) as [keyof T & string, ...(keyof T & string)[]];

/** The optional trigger block: the earliest meaningful human trigger. */
export const workItemTriggerSchema = z.object({ summary: text, evidence_refs: refs });
/** The optional agent reaction block: what the agent did across the item. */
export const workItemReactionSchema = z.object({ summary: text, main_actions: z.array(text).default([]) });
/** One consolidated outcome. */
export const workItemOutcomeSchema = z.object({
  category: enumOf(keys(OUTCOME_CATEGORIES), OUTCOME_CATEGORIES),
  summary: text,
  evidence_refs: refs,
  confidence: enumOf(CONFIDENCE_VALUES),
});
/** How the item or one of its branches ended. */
export const workItemTerminalStateSchema = z.object({ type: enumOf(keys(TERMINAL_STATES), TERMINAL_STATES), summary: text, evidence_refs: refs });

/**
 * One work item in canonical key order (contract §3.2), for forms and the MCP input schema.
 * It states the shape only: the rules of record, with the contract's exact messages and the
 * per-kind requirements, are `parseWorkItem` (stage A) and the workspace checks (stage B).
 */
export const workItemSchema = z.object({
  work_item_ref: z.string().regex(/^W\d{4}$/).describe("W0001, W0002, … unique within the envelope"),
  kind: enumOf(keys(WORK_ITEM_KINDS), WORK_ITEM_KINDS),
  title: text,
  covered_turns: z.array(turnRefSchema).min(1),
  trigger: workItemTriggerSchema.nullish(),
  agent_reaction: workItemReactionSchema.nullish(),
  outcomes: z.array(workItemOutcomeSchema).default([]),
  terminal_states: z.array(workItemTerminalStateSchema).default([]),
  limits: z.array(text).default([]),
  reason: z.string().optional().describe("required, non-empty, for excluded_with_reason"),
  confidence: enumOf(CONFIDENCE_VALUES),
});
/** A work item as a form or an agent drafts it. */
export type WorkItemDraft = z.input<typeof workItemSchema>;

/** A work item as serialized into the envelope (contract §3.2 canonical order; absent blocks omitted). */
export type WorkItemJson = {
  work_item_ref: string;
  kind: string;
  title: string;
  covered_turns: TurnKey[];
  trigger?: { summary: string; evidence_refs: TurnKey[] };
  agent_reaction?: { summary: string; main_actions: string[] };
  outcomes: { category: string; summary: string; evidence_refs: TurnKey[]; confidence: string }[];
  terminal_states: { type: string; summary: string; evidence_refs: TurnKey[] }[];
  limits: string[];
  reason?: string;
  confidence: string;
};

/** The envelope as Casefile reads it: unknown keys kept, work items not re-validated here. */
export const envelopeSchema = z.looseObject({
  schema_version: z.literal(ENVELOPE_SCHEMA_VERSION),
  project_key: z.string(),
  project_label: z.string(),
  work_items: z.array(z.unknown()),
  source_user_messages: z.array(z.unknown()),
});
/** A sound envelope (contract §3.1). */
export type SynthesisEnvelope = z.infer<typeof envelopeSchema>;

/** `write_work_item` input (seed 001). */
export type WriteWorkItemInput = { project_key: string; work_item: unknown };

/** Success (seed 001): the turns still uncovered; `[]` is the agent's stop signal. */
export type WorkItemAppended = { status: "appended"; project_key: string; work_item_ref: string; uncovered_turns: TurnKey[] };
/** Rejection; nothing was written. `uncovered_turns` is present whenever the project and envelope resolve. */
export type WorkItemInvalid = { status: "invalid"; errors: SynthesisError[]; uncovered_turns?: TurnKey[] };
/** `write_work_item` result, identical through every door. */
export type WriteWorkItemResult = WorkItemAppended | WorkItemInvalid;

/** Input of an operator's item from the dashboard; the ref is assigned (next free W%04d). */
export const operatorItemInputSchema = z.object({
  project_key: z.string().min(1),
  kind: z.enum(OPERATOR_KINDS),
  covered_turns: z.array(turnRefSchema).min(1),
  title: z.string(),
  reason: z.string().optional(),
  confidence: z.enum(CONFIDENCE_VALUES),
});
/** Input of `createOperatorItem` / `createOperatorItemAction`. */
export type OperatorItemInput = z.input<typeof operatorItemInputSchema>;

/**
 * A turn's synthesis state on the dashboard: covered by a work item of a kind (`evidence_gap`
 * for an evidence_gap_item), not covered yet (`uncovered` when it has a committed evidence
 * chain, `no_chain` when it has none, so only an evidence_gap_item can take it), or covered by
 * an item whose `kind` is not a controlled value (`invalid_work_item`, a hand-edited envelope).
 */
export type SynthesisTurnStateName =
  | "uncovered"
  | "no_chain"
  | "evidence_gap"
  | "material_work_item"
  | "no_material_work_item"
  | "excluded_with_reason"
  | "invalid_work_item";

/** One indexed turn, in index order, with its state and the first work item covering it. */
export type SynthesisTurnState = TurnKey & {
  turn_start_line: number;
  turn_end_line: number;
  has_chain: boolean;
  state: SynthesisTurnStateName;
  work_item_ref: string | null;
};

/** One stored work item with the turns it covers and its §3.5 problems (messages only). */
export type SynthesisWorkItemView = {
  index: number;
  work_item_ref: string | null;
  kind: string | null;
  title: string | null;
  covered_turns: TurnKey[];
  /** The stored object as it is on disk (null when the entry is not an object). */
  item: unknown;
  issues: string[];
};

/** Coverage counts: turns per state, work items per kind. */
export type SynthesisCounts = {
  indexed_turns: number;
  covered_turns: number;
  uncovered_turns: number;
  /** Uncovered turns without a committed chain (a subset of `uncovered_turns`). */
  no_chain_turns: number;
  /** Covered turns per kind of the covering item. */
  turns_by_kind: Record<WorkItemKind, number>;
  items_by_kind: Record<WorkItemKind, number>;
};

/** Everything the synthesis page needs for one project (`getSynthesisState`). */
export type SynthesisState = {
  project_key: string;
  project_label: string;
  /** sha256 hex of the envelope bytes, or "absent". */
  version: string;
  /** True on schema-2 workspaces: no writes. */
  read_only: boolean;
  /** The envelope as stored, or null when absent, not valid JSON, or not an object. */
  envelope: Record<string, unknown> | null;
  turns: SynthesisTurnState[];
  work_items: SynthesisWorkItemView[];
  counts: SynthesisCounts;
  /** What write_work_item would answer now, in index order. */
  uncovered_turns: TurnKey[];
  /** The ref an operator item would get now (the next free W%04d). */
  next_work_item_ref: string;
  /** True when prompt-diary's `inspect_project_synthesis` would accept the envelope. */
  complete: boolean;
  /** True when nothing but coverage is missing (a valid checkpoint, or complete). */
  sound: boolean;
  /** prompt-diary's `inspect_project_synthesis` messages, verbatim and in its order (§3.5). */
  errors: string[];
};
