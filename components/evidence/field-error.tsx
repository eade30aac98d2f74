import type { EvidenceError } from "@/lib/evidence/schema";

/**
 * The errors of one field, each with its hint, right under the input. The input points at
 * `id` with aria-describedby, so assistive tech (and e2e) read them as its description.
 */
export function FieldError({ id, errors }: { id: string; errors: readonly EvidenceError[] }) {
  if (errors.length === 0) return null;
  return (
    <ul id={id} className="flex flex-col gap-0.5 text-2xs" data-testid="field-error">
      {errors.map((e) => (
        <li key={e.message} className="text-danger">
          {e.message}
          {e.hint && <span className="block text-muted">Hint: {e.hint}</span>}
        </li>
      ))}
    </ul>
  );
}

/** Props every labelled editor input shares: the contract path names its errors and its id. */
export const describedBy = (id: string, errors: readonly EvidenceError[]) => ({
  "aria-invalid": errors.length > 0 || undefined,
  "aria-describedby": errors.length > 0 ? `${id}-error` : undefined,
});
