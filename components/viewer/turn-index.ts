import type { IndexTurn } from "@/lib/sources/common/schema";

/** A turn as the viewer holds it: its span, and its ordinal among all the session's turns when known. */
export type ViewerTurn = IndexTurn & { ordinal?: number };

/** Where a line sits relative to the session's turns; `index` is the turn's ordinal (its position in `turns` when unknown). */
export type TurnPlace<T extends ViewerTurn = ViewerTurn> = { turn: T; index: number; isStart: boolean } | null;

/**
 * Binary search over turns sorted by turn_start_line (the index contract guarantees the order).
 * `turns` may be a slice of the session's turns (issue 13: the rows shown and their neighbours);
 * a line outside every listed turn gives null.
 */
export function findTurn<T extends ViewerTurn>(turns: readonly T[], line: number): TurnPlace<T> {
  let lo = 0;
  let hi = turns.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (turns[mid]!.turn_start_line <= line) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  const turn = turns[found];
  if (!turn || line > turn.turn_end_line) return null;
  return { turn, index: turn.ordinal ?? found, isStart: line === turn.turn_start_line };
}
