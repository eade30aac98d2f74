"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";

import { plural } from "@/components/format/format";
import { useHotkeys } from "@/components/hooks/use-hotkeys";
import { useVirtualRowCount } from "@/components/hooks/use-hydrated";
import type { ReadMode, ViewerLinesResult } from "@/lib/session-reader/schema";
import type { SessionDetail } from "@/lib/workspace/schema";

import { type LineRange, onScrollToLineRequest, pastEndNotice } from "./line-hash";
import { lineMarker, NO_MARKS } from "./line-marks";
import { LineRow } from "./line-row";
import { lineWindowQuery, windowBounds } from "./queries";
import { ReadingTurnContext } from "./reading-turn";
import { findTurn } from "./turn-index";
import { adjustsScrollOnResize } from "./scroll-anchor";
import { stepTurnFrom, useVisibleTurns } from "./turns";
import { useLineCursor } from "./use-line-cursor";
import { KeyHelp } from "./key-help";
import { useLineWindows } from "./use-line-windows";
import { type HideableGroup, useViewerParams } from "./viewer-params";
import { ViewerHeader } from "./viewer-header";
import { ViewerSidebar } from "./viewer-sidebar";

/** Rows, not pixels. Rows are at least ~24 px, so the DOM stays far below 200 line rows. */
const OVERSCAN = 10;
const ESTIMATE: Record<ReadMode, number> = { compact: 58, full: 26 };
const TURN_LABEL_HEIGHT = 24;
/**
 * The viewport assumed before the scroll element is measured: the server renders the rows that
 * fit it (issue 13: first rows arrive with the HTML, not after hydration and a fetch), and the
 * client's first render uses the same rect, so hydration matches.
 */
const INITIAL_RECT = { width: 1280, height: 900 };
/**
 * Rows the virtualizer is told of before hydration (`useVirtualRowCount`): more than
 * {@link INITIAL_RECT} shows with overscan. The list keeps the whole transcript's height all the
 * same (the rows past them at their estimate), so the server's HTML and the hydrated page agree.
 */
const PRE_HYDRATION_ROWS = 200;

type SessionViewerProps = {
  detail: SessionDetail;
  /** Ranges to mark in the gutter (e.g. lines an evidence chain cites). Keep the array stable. */
  marks?: readonly LineRange[];
  /** A side panel after the turn list (e.g. the evidence panel). */
  panel?: ReactNode;
  /**
   * The start of the first line window (lines 1…n of index 0 of its mode), read by the server
   * with the page: seeds the window cache so the first rows render with the HTML; a partial one is
   * completed by a fetch on mount. Ignored when its mode is not the view's.
   */
  initialWindow?: ViewerLinesResult | null;
};

/**
 * The transcript viewer: every physical line, virtualized, fetched window by window; the turns
 * of the lines shown (labels, bands) are fetched the same way (issue 13: never all of them).
 */
export function SessionViewer({ detail, marks = NO_MARKS, panel, initialWindow = null }: SessionViewerProps) {
  const { line_count: lineCount } = detail;
  const queryClient = useQueryClient();
  const isMarked = useMemo(() => lineMarker(marks), [marks]);
  const [view, setView] = useViewerParams();
  const { mode, hidden } = view;
  // Seeded once, before the windows' queries first read the cache (server render included). A
  // slice shorter than the window is stored as stale, so the whole window is fetched on mount.
  useState(() => {
    if (initialWindow && initialWindow.mode === mode && initialWindow.line_range.start === 1) {
      const t = { projectKey: detail.project_key, sessionRef: detail.session_ref, agentId: detail.agent_id, lineCount };
      const whole = initialWindow.line_range.end >= windowBounds(mode, 0, lineCount).end;
      queryClient.setQueryData(lineWindowQuery(t, mode, 0).queryKey, initialWindow, whole ? undefined : { updatedAt: 1 });
    }
    return null;
  });
  const [helpOpen, setHelpOpen] = useState(false);
  const scrollRef = useRef<HTMLDivElement>(null);

  // Turns are known only around the rows shown, so a row's estimate counts its turn label when
  // that turn is loaded; rows are measured once rendered anyway.
  const turnStartsRef = useRef<ReadonlySet<number>>(new Set());
  const estimateSize = useCallback((index: number) => ESTIMATE[mode] + (turnStartsRef.current.has(index + 1) ? TURN_LABEL_HEIGHT : 0), [mode]);
  // Keys differ per mode, so each mode keeps its own measured heights.
  const getItemKey = useCallback((index: number) => (mode === "compact" ? index : lineCount + index), [mode, lineCount]);

  const rowCount = useVirtualRowCount(lineCount, PRE_HYDRATION_ROWS);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design; rows are memoized by hand
  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    getItemKey,
    overscan: OVERSCAN,
    initialRect: INITIAL_RECT,
    useFlushSync: false, // React 19 warns about flushSync inside lifecycle methods
  });
  useEffect(() => {
    virtualizer.shouldAdjustScrollPositionOnItemSizeChange = adjustsScrollOnResize;
  }, [virtualizer]);
  const items = virtualizer.getVirtualItems();
  const cursor = useLineCursor(virtualizer, lineCount);
  const { highlight, currentLine } = cursor;

  const target = useMemo(
    () => ({ projectKey: detail.project_key, sessionRef: detail.session_ref, agentId: detail.agent_id, lineCount }),
    [detail.project_key, detail.session_ref, detail.agent_id, lineCount],
  );
  const firstShown = (items[0]?.index ?? 0) + 1;
  const lastShown = (items.at(-1)?.index ?? -1) + 1;
  const windows = useLineWindows(target, mode, firstShown, lastShown);
  const turnsTarget = useMemo(() => ({ projectKey: detail.project_key, sessionRef: detail.session_ref }), [detail.project_key, detail.session_ref]);
  const sessionTurns = useVisibleTurns(turnsTarget, firstShown, lastShown, !detail.agent_id && detail.turn_count > 0);
  // A subagent transcript's own turns are all in its detail (issue 29).
  const agentTurns = useMemo(() => (detail.agent_id ? detail.turns.map((t, ordinal) => ({ ...t, ordinal })) : null), [detail.agent_id, detail.turns]);
  const turns = agentTurns ?? sessionTurns;
  useEffect(() => {
    turnStartsRef.current = new Set(turns.map((t) => t.turn_start_line));
  }, [turns]);
  // The side lists follow the reading position (issue 36: they stayed at T0001 while the reader was at T0786).
  const reading = findTurn(turns, cursor.anchorLine());
  const readingRef = reading?.turn.turn_ref ?? null;
  const readingOrdinal = reading?.index ?? 0;
  const readingTurn = useMemo(() => (readingRef === null ? null : { turn_ref: readingRef, ordinal: readingOrdinal }), [readingRef, readingOrdinal]);
  const pastEnd = pastEndNotice(cursor.hash, lineCount, detail.agent_id ? "subagent transcript" : "session");

  // Row heights change with the mode: keep the line the reader was on at the top.
  const modeAnchor = useRef<number | null>(null);
  const { scrollToLine } = cursor;
  useEffect(() => {
    const line = modeAnchor.current;
    modeAnchor.current = null;
    if (line !== null) scrollToLine(line, "start");
  }, [mode, scrollToLine]);
  // Another panel (evidence) asks to show a line: scroll only, the selection stays.
  useEffect(() => onScrollToLineRequest((line) => scrollToLine(line, "start")), [scrollToLine]);

  const changeMode = (next: ReadMode) => {
    if (next === mode) return;
    modeAnchor.current = cursor.anchorLine();
    setView({ ...view, mode: next });
  };
  const toggleGroup = (group: HideableGroup) => {
    const next = new Set(hidden);
    if (!next.delete(group)) next.add(group);
    setView({ ...view, hidden: next });
  };
  const stepTurn = (delta: 1 | -1) => {
    if (agentTurns) {
      const next = delta > 0 ? agentTurns.find((t) => t.turn_start_line > currentLine) : agentTurns.findLast((t) => t.turn_start_line < currentLine);
      if (next) cursor.moveTo(next.turn_start_line, "start");
      return;
    }
    if (detail.turn_count === 0) return;
    void stepTurnFrom(queryClient, turnsTarget, currentLine, delta)
      .then((next) => {
        if (next) cursor.moveTo(next.turn_start_line, "start");
      })
      .catch(() => undefined); // a failed lookup leaves the cursor where it is
  };

  useHotkeys({
    j: () => cursor.step(1),
    k: () => cursor.step(-1),
    g: () => cursor.moveTo(1, "start"),
    G: () => cursor.moveTo(lineCount, "end"),
    f: () => changeMode(mode === "compact" ? "full" : "compact"),
    // n/N belong to the transcript search (next/previous match); turns take ] and [.
    "]": () => stepTurn(1),
    "[": () => stepTurn(-1),
    "?": () => setHelpOpen(true),
  });
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ViewerHeader
        detail={detail}
        mode={mode}
        hidden={hidden}
        onModeChange={changeMode}
        onToggleGroup={toggleGroup}
        onJump={cursor.jump}
        onHelp={() => setHelpOpen(true)}
      />
      {helpOpen && <KeyHelp onClose={() => setHelpOpen(false)} />}
      {pastEnd && (
        <p role="status" className="border-b border-warn/30 bg-warn-soft px-4 py-1.5 text-xs text-warn">
          {pastEnd}
        </p>
      )}
      {windows.failed.map((f) => (
        <div key={f.index} role="alert" className="flex items-center gap-3 border-b border-danger/30 bg-danger-soft px-4 py-1.5 text-xs text-danger">
          Could not load lines {f.start}–{f.end}: {f.message}
          <button type="button" onClick={f.retry} className="rounded border border-danger/40 px-2 hover:bg-surface">
            Retry
          </button>
        </div>
      ))}
      {/* relative: a docked panel opened on a narrow screen lies over the transcript. */}
      <div className="relative flex min-h-0 flex-1">
        <div ref={scrollRef} role="region" aria-label="Transcript lines" tabIndex={0} className="min-h-0 flex-1 overflow-auto bg-surface [overflow-anchor:none]">
          {lineCount === 0 ? (
            <p className="p-6 text-center text-muted">This transcript has no lines.</p>
          ) : (
            <div role="list" aria-label={`Lines of ${detail.session_ref}`} className="relative w-full" style={{ height: virtualizer.getTotalSize() + (lineCount - rowCount) * ESTIMATE[mode] }}>
              <div className="absolute inset-x-0 top-0" style={{ transform: `translateY(${items[0]?.start ?? 0}px)` }}>
                {items.map((item) => {
                  const line = item.index + 1;
                  const slot = windows.slot(line);
                  const place = findTurn(turns, line);
                  const record = slot.status === "ready" ? slot.record : undefined;
                  // A hidden record collapses to an empty row (its turn label stays visible).
                  const isHidden = !!record && hidden.has(record.view.group) && !place?.isStart;
                  return (
                    <LineRow
                      key={item.key}
                      index={item.index}
                      line={line}
                      lineCount={lineCount}
                      mode={mode}
                      status={slot.status}
                      record={record}
                      hidden={isHidden}
                      turnStart={place?.isStart ? place.turn : null}
                      band={place ? ((place.index % 2) as 0 | 1) : null}
                      highlighted={!!highlight && line >= highlight.start && line <= highlight.end}
                      marked={isMarked(line)}
                      current={line === currentLine}
                      measureElement={virtualizer.measureElement}
                      onLineClick={cursor.onLineClick}
                    />
                  );
                })}
              </div>
            </div>
          )}
          {lineCount > 0 && <p className="py-4 text-center text-2xs text-muted">End of file · {plural(lineCount, "line")}</p>}
        </div>
        <ViewerSidebar detail={detail} current={readingTurn} onTurnClick={(turn) => cursor.moveTo(turn.turn_start_line, "start")} />
        <ReadingTurnContext value={readingTurn}>{panel}</ReadingTurnContext>
      </div>
    </div>
  );
}
