import { memo, type MouseEvent } from "react";

import type { ViewerCompactRecord, ReadMode, ViewerFullRecord } from "@/lib/session-reader/schema";
import type { IndexTurn } from "@/lib/sources/common/schema";

import { CompactRecordView } from "./compact-record-view";
import { FullRecordView } from "./full-record-view";

export type LineRowProps = {
  index: number;
  line: number;
  lineCount: number;
  mode: ReadMode;
  status: "loading" | "error" | "ready";
  record: ViewerCompactRecord | ViewerFullRecord | undefined;
  /** Set on the first line of a turn: the row carries the turn's label. */
  turnStart: IndexTurn | null;
  /** Alternating band of the turn this line belongs to; null outside every turn. */
  band: 0 | 1 | null;
  highlighted: boolean;
  /** Hidden by a record filter: an empty, zero-height row (kept for measuring). */
  hidden?: boolean;
  /** Marked by the page (a cited line): a gutter stripe, weaker than the highlight. */
  marked: boolean;
  current: boolean;
  measureElement: (node: HTMLElement | null) => void;
  onLineClick: (line: number, event: MouseEvent<HTMLAnchorElement>) => void;
};

const BAND_CLASS = { 0: "bg-turn-a", 1: "bg-turn-b" } as const;

function RowContent({ mode, status, record, isLast }: Pick<LineRowProps, "mode" | "status" | "record"> & { isLast: boolean }) {
  if (status === "loading" || !record) {
    return status === "error" ? (
      <p className="py-1 font-sans text-2xs text-danger">not loaded</p>
    ) : (
      <div aria-label="Loading line" className="my-1.5 h-3.5 w-2/3 animate-pulse rounded bg-line" />
    );
  }
  if (mode === "full" && "raw_line" in record) return <FullRecordView record={record} isLast={isLast} />;
  if (mode === "compact" && "record_type" in record) return <CompactRecordView record={record} isLast={isLast} />;
  return <div className="my-1.5 h-3.5 w-2/3 animate-pulse rounded bg-line" />;
}

/** One physical line: gutter link, turn label or band, and the record in the current mode. */
function LineRowView({
  index,
  line,
  lineCount,
  mode,
  status,
  record,
  turnStart,
  band,
  highlighted,
  hidden = false,
  marked,
  current,
  measureElement,
  onLineClick,
}: LineRowProps) {
  if (hidden) {
    return <div ref={measureElement} data-index={index} data-testid="line-row" data-line={line} data-hidden="true" role="listitem" aria-hidden className="h-0" />;
  }
  const timestamp = record?.view.timestamp ?? null;
  const edge = current ? "border-cursor" : highlighted ? "border-highlight-edge" : marked ? "border-ok" : "border-transparent";
  const background = highlighted ? "bg-highlight" : band === null ? "" : BAND_CLASS[band];
  return (
    <div
      ref={measureElement}
      data-index={index}
      data-testid="line-row"
      data-line={line}
      data-highlighted={highlighted ? "true" : undefined}
      data-cited={marked ? "true" : undefined}
      data-current={current ? "true" : undefined}
      aria-current={current ? "true" : undefined}
      role="listitem"
      aria-posinset={line}
      aria-setsize={lineCount}
      className={`border-l-2 ${edge} ${background}`}
    >
      {turnStart && (
        <div className="flex items-center gap-2 border-t border-turn-label/20 px-3 pt-1.5 pb-0.5 font-sans text-2xs font-semibold text-turn-label">
          <span className="rounded bg-turn-label px-1 text-white">{turnStart.turn_ref}</span>
          <span className="font-normal text-muted">
            lines {turnStart.turn_start_line}–{turnStart.turn_end_line}
          </span>
        </div>
      )}
      <div className="flex min-w-0 items-start">
        <a
          href={`#L${line}`}
          title={timestamp ? `Line ${line} · ${formatTimestamp(timestamp)}` : `Line ${line}`}
          onClick={(event) => onLineClick(line, event)}
          onMouseDown={(event) => event.shiftKey && event.preventDefault()} // no text selection on shift-click
          className={`w-16 shrink-0 py-1 pr-3 text-right font-mono text-xs tabular-nums select-none hover:text-accent ${current ? "font-semibold text-cursor" : marked ? "font-medium text-ok" : "text-faint"}`}
        >
          {line}
        </a>
        <div className={`min-w-0 flex-1 pr-3 font-mono text-xs ${band === null ? "opacity-60" : ""}`}>
          <RowContent mode={mode} status={status} record={record} isLast={line === lineCount} />
        </div>
      </div>
    </div>
  );
}

/** A record's timestamp for the gutter tooltip: local date and time with seconds, and the stored text when unparsable. */
function formatTimestamp(text: string): string {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return text;
  return new Date(ms).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "medium" });
}

export const LineRow = memo(LineRowView);
