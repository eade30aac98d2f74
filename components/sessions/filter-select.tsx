"use client";

/** One option of a {@link FilterSelect}: its value in the URL and what the list shows. */
export type FilterOption<V extends string> = { value: V; label: string };

/**
 * A filter of the session table as a labelled select whose first option, `all` (the empty value),
 * filters nothing: the risk, source and machine filters.
 */
export function FilterSelect<V extends string>({ id, label, value, options, onChange }: { id: string; label: string; value: V | ""; options: readonly FilterOption<V>[]; onChange: (value: V | "") => void }) {
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-xs font-medium text-muted">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value as V | "")}
        className="h-8 rounded-md border border-line-strong bg-surface px-2 text-sm focus:border-accent"
      >
        <option value="">all</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
