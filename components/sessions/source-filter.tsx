"use client";

import { SOURCE_LABELS, TRANSCRIPT_SOURCES } from "@/lib/sources/common/schema";

import type { SessionListParams } from "./session-list-params";

/** The session table's source filter: one agent's sessions (Claude Code, Codex, Gemini CLI, …) or all. */
export function SourceFilter({ value, onChange }: { value: SessionListParams["source"]; onChange: (source: SessionListParams["source"]) => void }) {
  return (
    <div className="flex items-center gap-2">
      <label htmlFor="source-filter" className="text-xs font-medium text-muted">
        Source
      </label>
      <select
        id="source-filter"
        value={value}
        onChange={(event) => onChange(event.target.value as SessionListParams["source"])}
        className="h-8 rounded-md border border-line-strong bg-surface px-2 text-sm focus:border-accent"
      >
        <option value="">all</option>
        {TRANSCRIPT_SOURCES.map((s) => (
          <option key={s} value={s}>
            {SOURCE_LABELS[s]}
          </option>
        ))}
      </select>
    </div>
  );
}
