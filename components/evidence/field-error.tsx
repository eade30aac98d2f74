import type { EvidenceError } from "@/lib/evidence/schema";

import { plainWords } from "./plain-words";

/**
 * The errors of one field right under the input, in plain words first ("Pick a trigger type.");
 * the contract's exact message and hint open under "exact message" (shown directly when the
 * message has no plainer form). `value` is the field's current value, for messages that quote
 * it (`20-10`). The input points at `id` with aria-describedby, so assistive tech (and e2e)
 * read the plain words as its description.
 */
export function FieldError({ id, errors, value }: { id: string; errors: readonly EvidenceError[]; value?: unknown }) {
  if (errors.length === 0) return null;
  return (
    <ul id={id} className="flex flex-col gap-0.5 text-2xs" data-testid="field-error">
      {errors.map((e) => {
        const plain = plainWords(e, value);
        return (
          <li key={e.message} className="text-danger">
            {plain ?? e.message}
            {plain ? (
              <details className="text-muted">
                <summary className="cursor-pointer select-none">exact message</summary>
                <span className="block font-mono">{e.message}</span>
                {e.hint && <span className="block">Hint: {e.hint}</span>}
              </details>
            ) : (
              e.hint && <span className="block text-muted">Hint: {e.hint}</span>
            )}
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
