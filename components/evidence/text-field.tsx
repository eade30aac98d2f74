"use client";

import type { EvidenceError } from "@/lib/evidence/schema";

import { describedBy, FieldError } from "./field-error";
import { fieldId } from "./validation";

type TextFieldProps = {
  path: string;
  label: string;
  value: string;
  errors: readonly EvidenceError[];
  onChange: (value: string) => void;
  rows?: number;
  placeholder?: string;
};

/** A labelled multi-line text input with its errors underneath. */
export function TextField({ path, label, value, errors, onChange, rows = 2, placeholder }: TextFieldProps) {
  const id = fieldId(path);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-2xs font-medium text-muted">
        {label}
      </label>
      <textarea
        id={id}
        rows={rows}
        value={value}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
        {...describedBy(id, errors)}
        className="w-full resize-y rounded border border-line-strong bg-surface px-2 py-1 text-xs leading-snug aria-invalid:border-danger"
      />
      <FieldError id={`${id}-error`} errors={errors} />
    </div>
  );
}
