/** A page of a session's indexed turns. */
import type { CoreContext } from "@/lib/context";
import type { SessionTurn, SessionTurnsInput, SessionTurnsPage } from "@/lib/workspace/schema";
import type { IndexTurn } from "@/lib/sources/common/schema";
import { getSession } from "@/lib/workspace/sessions";
import { getTurnUsage } from "@/lib/workspace/turn-usage";

/**
 * A page of a session's indexed turns (issue 13: the session page never loads tens of
 * thousands of turns into the client at once; it asks for the turns around the lines it shows
 * and for the side list page by page). Turns come in index order (sorted by
 * `turn_start_line`, contract §1.5), so a line lookup is a binary search.
 * @throws AppError not_found for an unknown project or session; io_error when usage must be
 *   counted and the transcript cannot be read.
 */
export async function listSessionTurns(ctx: CoreContext, input: SessionTurnsInput): Promise<SessionTurnsPage> {
  const session = await getSession(ctx, input.project_key, input.session_ref);
  const turns = session.row.turns;
  const from = input.line === undefined ? Math.min(input.offset, turns.length) : firstEndingAtOrAfter(turns, input.line);
  let to = Math.min(turns.length, from + input.limit);
  if (input.to_line !== undefined) {
    const toLine = input.to_line;
    while (to > from && turns[to - 1]!.turn_start_line > toLine) to -= 1;
  }
  const usage = input.usage && to > from ? await getTurnUsage(ctx, session) : null;
  const page: SessionTurn[] = [];
  for (let i = from; i < to; i += 1) {
    const t = turns[i]!;
    const u = usage?.[i];
    page.push(
      usage
        ? { turn_ref: t.turn_ref, turn_start_line: t.turn_start_line, turn_end_line: t.turn_end_line, ordinal: i, input_tokens: u?.input_tokens ?? null, output_tokens: u?.output_tokens ?? null, total_tokens: u?.total_tokens ?? null }
        : { turn_ref: t.turn_ref, turn_start_line: t.turn_start_line, turn_end_line: t.turn_end_line, ordinal: i },
    );
  }
  return { status: "ok", project_key: input.project_key, session_ref: input.session_ref, total_turns: turns.length, offset: from, turns: page };
}

/** Index of the first turn whose span ends on or after `line` (turns sorted by start; spans do not overlap). */
function firstEndingAtOrAfter(turns: readonly IndexTurn[], line: number): number {
  let lo = 0;
  let hi = turns.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (turns[mid]!.turn_end_line < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
