"use client";

import { FilterInput } from "@/components/data-table/filter-input";

type SessionFilterProps = {
  /** The committed filter (from the URL). */
  value: string;
  onCommit: (value: string) => void;
};

/** The session list's text filter ({@link FilterInput}): ref, id or first message. */
export function SessionFilter({ value, onCommit }: SessionFilterProps) {
  return <FilterInput id="session-filter" label="Filter sessions" placeholder="ref, id or first message…" value={value} onCommit={onCommit} />;
}
