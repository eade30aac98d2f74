import type { IndexTurn } from "@/lib/workspace/schema";

/** Where a line sits relative to the session's turns. */
export type TurnPlace = { turn: IndexTurn; index: number; isStart: boolean } | null;

/** Binary search over turns sorted by turn_start_line (the index contract guarantees the order). */
export function findTurn(turns: readonly IndexTurn[], line: number): TurnPlace {
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
  return { turn, index: found, isStart: line === turn.turn_start_line };
}
