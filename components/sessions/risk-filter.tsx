"use client";

import { FilterSelect } from "./filter-select";
import type { SessionListParams } from "./session-list-params";

const RISKS = [
  { value: "high", label: "high (2+ resets)" },
  { value: "low", label: "low (0–1 resets)" },
] as const;

/** Seed 003 risk filter for the session table (low: 0–1 context resets, high: 2+). */
export function RiskFilter({ value, onChange }: { value: SessionListParams["risk"]; onChange: (risk: SessionListParams["risk"]) => void }) {
  return <FilterSelect id="risk-filter" label="Risk" value={value} options={RISKS} onChange={onChange} />;
}
