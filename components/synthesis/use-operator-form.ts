import { useState } from "react";

import type { Confidence, OperatorItemInput, OperatorKind, SynthesisError, SynthesisTurnState } from "@/lib/synthesis/schema";

import { useCreateOperatorItem } from "./mutations";
import { KIND_FOR_STATE, turnKeyOf } from "./turn-states";
import { type FormField, placeOf, shapeErrors } from "./validation";

/** The kinds a selection allows: each open turn allows exactly one (no chain → gap, chain → exclusion). */
export function allowedKinds(selection: readonly SynthesisTurnState[]): Set<OperatorKind> {
  return new Set(selection.flatMap((t) => KIND_FOR_STATE[t.state] ?? []));
}

function push<K>(map: Map<K, SynthesisError[]>, key: K, error: SynthesisError): void {
  const list = map.get(key);
  if (list) list.push(error);
  else map.set(key, [error]);
}

const fieldValue = (input: OperatorItemInput, field: FormField): unknown =>
  field === "covered_turns" ? input.covered_turns.map((t) => `${t.session_ref}/${t.turn_ref}`).join(",") : input[field];

/**
 * The operator form's state and every error derived during render: zod's shape errors for
 * fields that were edited (all of them after a create attempt), and the server's errors at the
 * field their path names while that field still holds the value it was reported for (a
 * selected turn's errors while it stays selected). A refused create keeps every value.
 */
export function useOperatorForm(projectKey: string, selection: readonly SynthesisTurnState[]) {
  const [title, setTitle] = useState("");
  const [reason, setReason] = useState("");
  const [confidence, setConfidence] = useState<Confidence>("high");
  const [kindChoice, setKindChoice] = useState<OperatorKind | null>(null);
  const [touched, setTouched] = useState<ReadonlySet<FormField>>(() => new Set());
  const [submitted, setSubmitted] = useState(false);
  const mutation = useCreateOperatorItem(projectKey);

  const allowed = allowedKinds(selection);
  // A selection of one sort decides the kind; a mixed one (or none) leaves it to the operator. With
  // nothing selected the kind is the one open turns qualify for first: a gap (no chain yet; issue 29).
  const kind: OperatorKind = allowed.size === 1 ? [...allowed][0]! : (kindChoice ?? (selection[0] && KIND_FOR_STATE[selection[0].state]) ?? "evidence_gap_item");
  const input: OperatorItemInput = {
    project_key: projectKey,
    kind,
    covered_turns: selection.map((t) => ({ session_ref: t.session_ref, turn_ref: t.turn_ref })),
    title,
    reason,
    confidence,
  };
  const shape = shapeErrors(input);

  const sent = mutation.variables;
  const rejected = mutation.data?.status === "invalid" && sent ? mutation.data.errors : [];
  const server = { field: new Map<FormField, SynthesisError[]>(), turn: new Map<string, SynthesisError[]>(), form: [] as SynthesisError[] };
  for (const error of rejected) {
    const place = placeOf(error, sent!);
    if ("turn" in place) push(server.turn, place.turn, error);
    else if ("form" in place) server.form.push(error);
    else if (fieldValue(sent!, place.field) === fieldValue(input, place.field)) push(server.field, place.field, error);
  }

  const errorsAt = (field: FormField): SynthesisError[] => {
    const fromServer = server.field.get(field) ?? [];
    const client = shape.get(field);
    const shown = client && (submitted || touched.has(field)) && !fromServer.some((e) => e.message === client.message);
    return shown ? [...fromServer, client] : fromServer;
  };
  const edit =
    <T>(set: (value: T) => void, field: FormField) =>
    (value: T) => {
      set(value);
      setTouched((prev) => (prev.has(field) ? prev : new Set(prev).add(field)));
    };

  return {
    values: { kind, title, reason, confidence },
    allowed,
    setKind: edit(setKindChoice, "kind"),
    setTitle: edit(setTitle, "title"),
    setReason: edit(setReason, "reason"),
    setConfidence: edit(setConfidence, "confidence"),
    errorsAt,
    // A turn's errors hold while it stays selected for the same kind (they name the kind's coverage rule).
    turnErrors: (turnKey: string) => (sent?.kind === kind && selection.some((t) => turnKeyOf(t) === turnKey) ? (server.turn.get(turnKey) ?? []) : []),
    formErrors: server.form,
    failure: mutation.error,
    pending: mutation.isPending,
    created: mutation.data?.status === "appended" ? mutation.data.work_item_ref : null,
    /**
     * Shows every shape error and returns the fields that have one; without any, creates the
     * item (on success the text fields reset and `onCreated` runs).
     */
    submit(onCreated: () => void, onRejected: (errors: readonly SynthesisError[]) => void): FormField[] {
      setSubmitted(true);
      if (shape.size > 0) return [...shape.keys()];
      mutation.mutate(input, {
        onSuccess: (result) => {
          if (result.status !== "appended") return onRejected(result.errors);
          setTitle("");
          setReason("");
          setTouched(new Set());
          setSubmitted(false);
          onCreated();
        },
      });
      return [];
    },
  };
}
