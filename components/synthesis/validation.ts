import { CONFIDENCE_VALUES, type OperatorItemInput, operatorItemInputSchema, OPERATOR_KINDS, type SynthesisError, workItemSchema } from "@/lib/synthesis/schema";

/** The form's shape check: the operator input schema, with a work item's non-blank title. */
const operatorFormSchema = operatorItemInputSchema.extend({ title: workItemSchema.shape.title });

/** Paths the form shows at an input; errors at any other path go to the top of the form. */
export const FORM_FIELDS = ["kind", "title", "reason", "confidence", "covered_turns"] as const;
export type FormField = (typeof FORM_FIELDS)[number];

// NOTE: the contract's stage-A wording (lib/synthesis/parse-work-item.ts `stageAErrors`), so a
// shape error reads the same before and after a save. Repeated because UI code may import only
// lib/*/schema modules; the server re-checks and answers in these words.
const SHAPE_ERRORS: Record<FormField, SynthesisError | null> = {
  kind: {
    path: "work_item.kind",
    message: `work_item.kind must be one of ${OPERATOR_KINDS.join(", ")} for an operator item`,
    hint: "operators record evidence gaps and exclusions; narrative work items come from the synthesis agent",
  },
  title: { path: "work_item.title", message: "work_item.title must be a non-empty string", hint: "provide a concise non-empty string" },
  reason: null,
  confidence: { path: "work_item.confidence", message: "work_item.confidence must be a controlled confidence value", hint: `use a controlled value such as ${[...CONFIDENCE_VALUES].sort().join(", ")}` },
  covered_turns: {
    path: "work_item.covered_turns",
    message: "work_item.covered_turns must list at least one entry",
    hint: "select open turns in the strip: every work item must account for at least one indexed turn",
  },
};

/** Shape errors per form field, from the same zod schemas the server uses. */
export function shapeErrors(input: OperatorItemInput): Map<FormField, SynthesisError> {
  const out = new Map<FormField, SynthesisError>();
  const parsed = operatorFormSchema.safeParse(input);
  if (parsed.success) return out;
  for (const issue of parsed.error.issues) {
    const field = FORM_FIELDS.find((f) => f === issue.path[0]);
    const error = field && SHAPE_ERRORS[field];
    if (field && error && !out.has(field)) out.set(field, error);
  }
  return out;
}

const COVERED_AT = /^work_item\.covered_turns\[(\d+)\]/;

/** Where a server error shows: a form field, one selected turn (by key), or the top of the form. */
export function placeOf(error: SynthesisError, sent: OperatorItemInput): { field: FormField } | { turn: string } | { form: true } {
  const at = COVERED_AT.exec(error.path);
  if (at) {
    const t = sent.covered_turns[Number(at[1])];
    return t ? { turn: `${t.session_ref}/${t.turn_ref}` } : { field: "covered_turns" };
  }
  const field = FORM_FIELDS.find((f) => error.path === `work_item.${f}`);
  return field ? { field } : { form: true };
}
