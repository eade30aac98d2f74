"use client";

import { type FormEvent, useState } from "react";

import { formatBytes, formatDuration, plural } from "@/components/format/format";
import type { ReadMode, RecordGroup } from "@/lib/session-reader/schema";
import { isTranscriptSource, SOURCE_LABELS } from "@/lib/sources/common/schema";
import type { SessionDetail } from "@/lib/workspace/schema";

import { type LineRange, readLineHash } from "./line-hash";
import { HIDEABLE_GROUPS, type HideableGroup } from "./viewer-params";

type ViewerHeaderProps = {
  detail: SessionDetail;
  mode: ReadMode;
  /** Record groups the reader hid. */
  hidden: ReadonlySet<RecordGroup>;
  onModeChange: (mode: ReadMode) => void;
  onToggleGroup: (group: HideableGroup) => void;
  onJump: (range: LineRange) => void;
  onHelp: () => void;
};

const GROUP_LABELS: Record<HideableGroup, { label: string; title: string }> = {
  progress: { label: "progress", title: "Hook and command progress, token counts" },
  snapshot: { label: "snapshots", title: "File-history snapshots" },
  system: { label: "system", title: "System records, summaries, queue operations, turn context" },
};

/** Model, client version, cwd, git branch, start and duration, as one quiet line. */
function SessionFactsLine({ detail }: { detail: SessionDetail }) {
  const { facts } = detail;
  const items: { label: string; value: string; title?: string }[] = [];
  if (facts.model) items.push({ label: "model", value: facts.model });
  if (facts.client_version) items.push({ label: isTranscriptSource(detail.source) ? SOURCE_LABELS[detail.source].toLowerCase() : detail.source, value: facts.client_version });
  // Where the session ran (issue 39 provenance), beside the folder it ran in.
  items.push({ label: "machine", value: detail.machine });
  if (facts.cwd) items.push({ label: "cwd", value: facts.cwd });
  if (facts.git_branch) items.push({ label: "branch", value: facts.git_branch });
  if (facts.started_at) items.push({ label: "started", value: formatDateTime(facts.started_at), title: facts.started_at });
  if (facts.duration_seconds !== null) items.push({ label: "duration", value: formatDuration(facts.duration_seconds) });
  if (items.length === 0) return null;
  return (
    <dl aria-label="Session facts" className="hidden flex-wrap items-baseline gap-x-4 gap-y-0.5 text-2xs text-muted sm:flex">
      {items.map((item) => (
        <div key={item.label} className="flex min-w-0 items-baseline gap-1">
          <dt>{item.label}</dt>
          <dd className="max-w-[28rem] truncate font-mono text-ink/80" title={item.title ?? item.value}>
            {item.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function formatDateTime(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

const MODES: { mode: ReadMode; label: string; title: string }[] = [
  { mode: "compact", label: "Compact", title: "One structured record per line (f)" },
  { mode: "full", label: "Full", title: "Raw JSONL lines (f)" },
];

function JumpToLine({ lineCount, onJump }: { lineCount: number; onJump: (range: LineRange) => void }) {
  const [value, setValue] = useState("");
  const [invalid, setInvalid] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Accepts "120", "40-45" or "L40-L45". A line past the end is asked for as typed: the viewer
    // shows the last line and says the rest is not there (issue 36), as for a pasted link.
    const range = readLineHash(`#L${value.replace(/\s+/g, "").replace(/^L/i, "")}`);
    const ok = range !== null && range.start >= 1 && lineCount >= 1;
    setInvalid(!ok);
    if (ok) onJump(range);
  };
  return (
    <form onSubmit={submit} className="flex items-center gap-1.5">
      <label htmlFor="jump-to-line" className="text-xs text-muted max-sm:sr-only">
        Jump to line
      </label>
      <input
        id="jump-to-line"
        inputMode="numeric"
        autoComplete="off"
        value={value}
        onChange={(event) => setValue(event.target.value)}
        placeholder={`1–${lineCount}`}
        aria-invalid={invalid || undefined}
        className="h-7 w-24 rounded border border-line-strong bg-surface px-2 font-mono text-xs aria-invalid:border-danger"
      />
      <button type="submit" className="h-7 rounded border border-line-strong px-2 text-xs hover:bg-canvas">
        Go
      </button>
    </form>
  );
}

/** Breadcrumbs, transcript facts, the compact/full toggle, record filters, jump-to-line and the keyboard hint. */
export function ViewerHeader({ detail, mode, hidden, onModeChange, onToggleGroup, onJump, onHelp }: ViewerHeaderProps) {
  return (
    <header className="flex flex-col gap-1.5 border-b border-line bg-surface px-4 py-1.5 sm:gap-2 sm:py-2.5">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="text-xs text-muted">
          {plural(detail.line_count, "line")} · {formatBytes(detail.size_bytes)} · {detail.source}
        </span>
        <span className="hidden truncate font-mono text-2xs text-faint sm:inline" title={detail.session_path}>
          {detail.source_session_id}
        </span>
      </div>
      <SessionFactsLine detail={detail} />
      <div className="flex flex-wrap items-center gap-x-5 gap-y-1.5">
        <div role="group" aria-label="View mode" className="inline-flex overflow-hidden rounded border border-line-strong">
          {MODES.map((m) => (
            <button
              key={m.mode}
              type="button"
              title={m.title}
              aria-pressed={mode === m.mode}
              onClick={() => onModeChange(m.mode)}
              className="h-7 px-3 text-xs aria-pressed:bg-ink aria-pressed:text-white not-aria-pressed:hover:bg-canvas"
            >
              {m.label}
            </button>
          ))}
        </div>
        <div role="group" aria-label="Hide records" className="hidden items-center gap-2 text-xs sm:flex">
          <span className="text-muted">Hide</span>
          {HIDEABLE_GROUPS.map((group) => (
            <label key={group} title={GROUP_LABELS[group].title} className="flex items-center gap-1">
              <input type="checkbox" checked={hidden.has(group)} onChange={() => onToggleGroup(group)} className="accent-ink" />
              {GROUP_LABELS[group].label}
            </label>
          ))}
        </div>
        <JumpToLine lineCount={detail.line_count} onJump={onJump} />
        <p className="hidden text-2xs text-muted sm:block">
          <Kbd>j</Kbd>/<Kbd>k</Kbd> line · <Kbd>]</Kbd>/<Kbd>[</Kbd> turn · <Kbd>f</Kbd> mode ·{" "}
          <button type="button" onClick={onHelp} className="text-accent hover:underline">
            <Kbd>?</Kbd> all keys
          </button>
        </p>
      </div>
    </header>
  );
}

function Kbd({ children }: { children: string }) {
  return <kbd className="rounded border border-line-strong bg-canvas px-1 font-mono text-[0.65rem]">{children}</kbd>;
}
