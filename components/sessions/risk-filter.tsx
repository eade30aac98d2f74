"use client";

import type { SessionListParams } from "./session-list-params";

/** Seed 003 risk filter for the session table (low: 0–1 context resets, high: 2+). */
export function RiskFilter({ value, onChange }: { value: SessionListParams["risk"]; onChange: (risk: SessionListParams["risk"]) => void }) {
  return (
    <div className="flex items-center gap-2">
      <label htmlFor="risk-filter" className="text-xs font-medium text-muted">
        Risk
      </label>
      <select
        id="risk-filter"
        value={value}
        onChange={(event) => onChange(event.target.value as SessionListParams["risk"])}
        className="h-8 rounded-md border border-line-strong bg-surface px-2 text-sm focus:border-accent"
      >
        <option value="">all</option>
        <option value="high">high (2+ resets)</option>
        <option value="low">low (0–1 resets)</option>
      </select>
    </div>
  );
}
