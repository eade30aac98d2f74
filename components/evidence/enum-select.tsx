"use client";

import type { EvidenceError } from "@/lib/evidence/schema";

import { describedBy, FieldError } from "./field-error";
import { fieldId } from "./validation";

type EnumSelectProps = {
  path: string;
  label: string;
  /** A controlled vocabulary: value → meaning (lib/evidence/schema). */
  options: Readonly<Record<string, string>>;
  value: string;
  errors: readonly EvidenceError[];
  onChange: (value: string) => void;
};

/** A select over one controlled vocabulary; the chosen value's meaning is shown under it. */
export function EnumSelect({ path, label, options, value, errors, onChange }: EnumSelectProps) {
  const id = fieldId(path);
  const meaning = options[value];
  // A stored value outside the vocabulary stays selectable, so the form shows the card as it is.
  const unknown = value !== "" && meaning === undefined;
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-2xs font-medium text-muted">
        {label}
      </label>
      <select
        id={id}
        value={value}
        title={meaning}
        onChange={(event) => onChange(event.target.value)}
        {...describedBy(id, errors)}
        className="h-7 w-full rounded border border-line-strong bg-surface px-1.5 font-mono text-xs aria-invalid:border-danger"
      >
        <option value="">— choose —</option>
        {unknown && <option value={value}>{value} (not a controlled value)</option>}
        {Object.entries(options).map(([option, description]) => (
          <option key={option} value={option} title={description}>
            {option}
          </option>
        ))}
      </select>
      {meaning && <p className="text-2xs leading-snug text-muted">{meaning}</p>}
      <FieldError id={`${id}-error`} errors={errors} />
    </div>
  );
}
