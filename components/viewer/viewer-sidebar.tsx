import Link from "next/link";

import { formatBytes, formatCount } from "@/components/format/format";
import { routes } from "@/components/navigation/routes";
import type { IndexTurn, SessionDetail } from "@/lib/workspace/schema";

/** A side list of thousands of buttons helps nobody; past this, use "Jump to line". */
const MAX_LISTED_TURNS = 500;

type ViewerSidebarProps = {
  detail: SessionDetail;
  currentTurnRef: string | null;
  onTurnClick: (turn: IndexTurn) => void;
};

/** Turns (click to scroll) and the session's subagent transcripts (links), or the way back to the main one. */
export function ViewerSidebar({ detail, currentTurnRef, onTurnClick }: ViewerSidebarProps) {
  const listed = detail.turns.slice(0, MAX_LISTED_TURNS);
  const usage = new Map(detail.turn_usage.map((u) => [u.turn_ref, u]));
  return (
    <aside className="flex w-48 shrink-0 xl:w-64 flex-col gap-4 overflow-auto border-l border-line bg-surface p-3 text-xs">
      {detail.agent_id && (
        <Link href={routes.session(detail.project_key, detail.session_ref)} className="font-medium text-accent hover:underline">
          ← Main session {detail.session_ref}
        </Link>
      )}

      <nav aria-label="Turns" className="flex flex-col gap-1">
        <h2 className="text-2xs font-semibold tracking-wide text-muted uppercase">Turns ({formatCount(detail.turns.length)})</h2>
        {detail.turns.length === 0 && <p className="text-faint">No turns indexed for this transcript.</p>}
        <ul className="flex flex-col">
          {listed.map((turn) => (
            <li key={turn.turn_ref}>
              <button
                type="button"
                onClick={() => onTurnClick(turn)}
                aria-current={turn.turn_ref === currentTurnRef ? "true" : undefined}
                className="flex w-full items-baseline justify-between rounded px-1.5 py-0.5 text-left hover:bg-accent-soft aria-[current=true]:bg-accent-soft aria-[current=true]:font-semibold"
              >
                <span className="font-mono">{turn.turn_ref}</span>
                <span className="font-mono text-2xs text-muted tabular-nums">
                  L{turn.turn_start_line}–{turn.turn_end_line}
                  <TurnTokens usage={usage.get(turn.turn_ref)} />
                </span>
              </button>
            </li>
          ))}
        </ul>
        {detail.turns.length > listed.length && (
          <p className="text-faint">+{formatCount(detail.turns.length - listed.length)} more — use Jump to line.</p>
        )}
      </nav>

      {(detail.subagents.length > 0 || !detail.agent_id) && (
        <nav aria-label="Subagents" className="flex flex-col gap-1">
          <h2 className="text-2xs font-semibold tracking-wide text-muted uppercase">
            Subagents ({formatCount(detail.subagents.length)})
          </h2>
          {detail.subagents.length === 0 && <p className="text-faint">No subagent transcripts.</p>}
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
    </aside>
  );
}

/** Output (and, for Codex, total) tokens of a turn; nothing when unknown. */
function TurnTokens({ usage }: { usage: SessionDetail["turn_usage"][number] | undefined }) {
  if (!usage || usage.output_tokens === null) return null;
  const title = usage.total_tokens === null ? `${usage.output_tokens} output tokens` : `${usage.output_tokens} output / ${usage.total_tokens} total tokens`;
  return (
    <span className="ml-1.5 text-faint" title={title} data-testid="turn-tokens">
      {formatCount(usage.output_tokens)} tok
    </span>
  );
}
