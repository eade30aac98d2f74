import type { EvidenceError } from "@/lib/evidence/schema";

import { plainWords } from "./plain-words";

/**
 * The errors of one field right under the input, each said once: in plain words when it has a
 * plainer form ("Pick a trigger type."), with its hint; the contract's exact message is the
 * item's tooltip and `data-exact` (issue 29: it no longer repeats under a disclosure). `value`
 * is the field's current value, for messages that quote it (`20-10`). The input points at `id`
 * with aria-describedby, so assistive tech (and e2e) read the plain words as its description.
 */
export function FieldError({ id, errors, value }: { id: string; errors: readonly EvidenceError[]; value?: unknown }) {
  if (errors.length === 0) return null;
  return (
    <ul id={id} className="flex flex-col gap-0.5 text-2xs" data-testid="field-error">
      {errors.map((e) => {
        const plain = plainWords(e, value);
        return (
          <li key={e.message} className="text-danger" title={e.message} data-exact={e.message}>
            {plain ?? e.message}
            {e.hint && !plain && <span className="block text-muted">Hint: {e.hint}</span>}
          </li>
        );
      })}
    </ul>
  );
}

/** Props every labelled editor input shares: the contract path names its errors and its id. */
export const describedBy = (id: string, errors: readonly EvidenceError[]) => ({
  "aria-invalid": errors.length > 0 || undefined,
  "aria-describedby": errors.length > 0 ? `${id}-error` : undefined,
});
