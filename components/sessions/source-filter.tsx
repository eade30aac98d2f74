"use client";

import { SOURCE_LABELS, TRANSCRIPT_SOURCES } from "@/lib/sources/common/schema";

import { FilterSelect } from "./filter-select";
import type { SessionListParams } from "./session-list-params";

const SOURCES = TRANSCRIPT_SOURCES.map((s) => ({ value: s, label: SOURCE_LABELS[s] }));

/** The session table's source filter: one agent's sessions (Claude Code, Codex, Gemini CLI, …) or all. */
export function SourceFilter({ value, onChange }: { value: SessionListParams["source"]; onChange: (source: SessionListParams["source"]) => void }) {
  return <FilterSelect id="source-filter" label="Source" value={value} options={SOURCES} onChange={onChange} />;
}
