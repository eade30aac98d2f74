import Link from "next/link";
import { useEffect, useRef } from "react";

import { formatBytes, formatCount } from "@/components/format/format";
import { useDebouncedValue } from "@/components/hooks/use-debounced-value";
import { routes } from "@/components/navigation/routes";
import { DockedPanel } from "@/components/viewer/docked-panel";
import type { SessionDetail, SessionTurn } from "@/lib/workspace/schema";
import type { IndexTurn } from "@/lib/sources/common/schema";

import { FOLLOW_DELAY_MS, type ReadingTurn } from "./reading-turn";
import { SIDEBAR_TURNS_PAGE, useTurnList } from "./turns";

/** The furthest the list loads pages by itself to reach the reading turn (25 pages); past it, "Show more" still does. */
const FOLLOW_MAX_TURNS = 5000;

type ViewerSidebarProps = {
  detail: SessionDetail;
  /** The turn being read: highlighted, and scrolled into view (its page loaded first). */
  current: ReadingTurn | null;
  onTurnClick: (turn: IndexTurn) => void;
};

/**
 * Turns (click to scroll) with their tokens, {@link SIDEBAR_TURNS_PAGE} at a time (issue 13:
 * read page by page through `list_session_turns`), following the reading turn (issue 36), and
 * the session's subagent transcripts (links), or the way back to the main one.
 */
export function ViewerSidebar({ detail, current, onTurnClick }: ViewerSidebarProps) {
  const total = detail.turn_count;
  const list = useTurnList({ projectKey: detail.project_key, sessionRef: detail.session_ref }, !detail.agent_id && total > 0);
  // A subagent transcript's own turns come with its detail (issue 29); a session's are paged.
  const listed: SessionTurn[] = detail.agent_id ? detail.turns.map((t, ordinal) => ({ ...t, ordinal })) : (list.data?.pages.flatMap((p) => p.turns) ?? []);
  const currentTurnRef = current?.turn_ref ?? null;

  // Once the reading position settles, load the pages up to its turn, one after another.
  const follow = useDebouncedValue(current?.ordinal ?? null, FOLLOW_DELAY_MS);
  const { hasNextPage, isFetchingNextPage, isError, fetchNextPage } = list;
  useEffect(() => {
    if (follow !== null && follow >= listed.length && follow < FOLLOW_MAX_TURNS && hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [follow, listed.length, hasNextPage, isFetchingNextPage, isError, fetchNextPage]);
  // Keep the reading turn in view in the list (no scroll when it is already).
  const turnsRef = useRef<HTMLUListElement>(null);
  useEffect(() => {
    turnsRef.current?.querySelector('[aria-current="true"]')?.scrollIntoView({ block: "nearest" });
  }, [currentTurnRef, listed.length]);
  return (
    <DockedPanel layout="turns" label="Turns" bodyClassName="flex flex-col gap-4 p-3 text-xs">
      {(dismiss) => (
        <>
          {detail.agent_id && (
            <Link
              href={detail.subagent?.spawn_line ? routes.line(detail.project_key, detail.session_ref, detail.subagent.spawn_line) : routes.session(detail.project_key, detail.session_ref)}
              className="font-medium text-accent hover:underline"
            >
              ← Main session {detail.session_ref}
              {detail.subagent?.spawn_line ? ` at L${detail.subagent.spawn_line}` : ""}
            </Link>
          )}

          <nav aria-label="Turns" className="flex flex-col gap-1">
            <h2 className="text-2xs font-semibold tracking-wide text-muted uppercase">Turns ({formatCount(total)})</h2>
            {total === 0 && <p className="text-faint">No turns indexed for this transcript.</p>}
            {list.isError && <p className="text-danger">Could not load the turns: {list.error.message}</p>}
            <ul ref={turnsRef} className="flex flex-col">
              {listed.map((turn) => (
                <li key={turn.turn_ref}>
                  <button
                    type="button"
                    onClick={() => {
                      onTurnClick(turn);
                      dismiss();
                    }}
                    aria-current={turn.turn_ref === currentTurnRef ? "true" : undefined}
                    className="flex w-full items-baseline justify-between rounded px-1.5 py-0.5 text-left hover:bg-accent-soft aria-[current=true]:bg-accent-soft aria-[current=true]:font-semibold"
                  >
                    <span className="font-mono">{turn.turn_ref}</span>
                    <span className="font-mono text-2xs text-muted tabular-nums">
                      L{turn.turn_start_line}–{turn.turn_end_line}
                      <TurnTokens usage={turn} />
                    </span>
                  </button>
                </li>
              ))}
            </ul>
            {!detail.agent_id && total > listed.length && list.hasNextPage && (
              <button
                type="button"
                onClick={() => void list.fetchNextPage()}
                disabled={list.isFetchingNextPage}
                className="mt-1 rounded border border-line px-2 py-0.5 text-left text-2xs text-muted hover:bg-canvas disabled:opacity-60"
              >
                {list.isFetchingNextPage ? "Loading…" : `Show ${formatCount(Math.min(SIDEBAR_TURNS_PAGE, total - listed.length))} more of ${formatCount(total - listed.length)}`}
              </button>
            )}
          </nav>

          {(detail.subagents.length > 0 || !detail.agent_id) && (
            <nav aria-label="Subagents" className="flex flex-col gap-1">
              <h2 className="text-2xs font-semibold tracking-wide text-muted uppercase">
                Subagents ({formatCount(detail.subagents.length)})
              </h2>
              {detail.subagents.length === 0 && <p className="text-faint">{detail.not_recorded.includes("subagents") ? "This agent records no subagents." : "No subagent transcripts."}</p>}
              <ul className="flex flex-col">
                {detail.subagents.map((agent) => (
                  <li key={agent.agent_id}>
                    <Link
                      href={routes.session(detail.project_key, detail.session_ref, agent.agent_id)}
                      title={agent.file_name}
                      aria-current={agent.agent_id === detail.agent_id ? "page" : undefined}
                      className="flex items-baseline justify-between rounded px-1.5 py-0.5 hover:bg-accent-soft aria-[current=page]:bg-accent-soft"
                    >
                      <span className="truncate font-mono text-accent">{agent.agent_id}</span>
                      <span className="shrink-0 pl-2 text-2xs text-muted">{formatBytes(agent.size_bytes)}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          )}
        </>
      )}
    </DockedPanel>
  );
}

/** Output (and, for Codex, total) tokens of a turn; nothing when unknown. */
function TurnTokens({ usage }: { usage: SessionTurn }) {
  if (usage.output_tokens === null || usage.output_tokens === undefined) return null;
  const title = usage.total_tokens === null || usage.total_tokens === undefined ? `${usage.output_tokens} output tokens` : `${usage.output_tokens} output / ${usage.total_tokens} total tokens`;
  return (
    <span className="ml-1.5 text-faint" title={title} data-testid="turn-tokens">
      {formatCount(usage.output_tokens)} tok
    </span>
  );
}
