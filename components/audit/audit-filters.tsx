"use client";

import type { AuditFilters } from "./queries";

const DOORS = ["", "mcp", "http", "cli", "ui"];
const RESULTS = ["", "success", "failure", "denied", "crashed", "running"];

type AuditFiltersProps = { value: AuditFilters; tools: readonly string[]; onChange: (next: AuditFilters) => void };

/** Door, tool, result and session filters of the Audit page. */
export function AuditFilterBar({ value, tools, onChange }: AuditFiltersProps) {
  const select = (key: keyof AuditFilters, label: string, options: readonly string[]) => (
    <label className="flex items-center gap-1 text-xs text-muted">
      {label}
      <select aria-label={label} className="rounded border border-line bg-surface px-1 py-0.5 text-sm text-ink" value={value[key]} onChange={(e) => onChange({ ...value, [key]: e.target.value })}>
        {options.map((o) => (
          <option key={o} value={o}>
            {o || "all"}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div className="flex flex-wrap items-center gap-3">
      {select("door", "Door", DOORS)}
      {select("tool_name", "Tool", ["", ...tools])}
      {select("result", "Result", RESULTS)}
      <label className="flex items-center gap-1 text-xs text-muted">
        Session
        <input
          aria-label="Session"
          placeholder="project_key/S0001"
          className="w-56 rounded border border-line bg-surface px-1 py-0.5 font-mono text-xs text-ink"
          key={value.task_id}
          defaultValue={value.task_id}
          onKeyDown={(e) => {
            if (e.key === "Enter") onChange({ ...value, task_id: e.currentTarget.value.trim() });
          }}
          onBlur={(e) => onChange({ ...value, task_id: e.currentTarget.value.trim() })}
        />
      </label>
    </div>
  );
}
