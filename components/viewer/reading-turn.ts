import { createContext, useContext } from "react";

/**
 * The turn the reader is on (issue 36): the one holding the selected line while it is on
 * screen, else the top line shown. `ordinal` is its position among the transcript's turns.
 */
export type ReadingTurn = { turn_ref: string; ordinal: number };

/** How long the reading position stays put before the side lists load pages to reach it. */
export const FOLLOW_DELAY_MS = 300;

/** The viewer's reading turn, for the panel beside it (the evidence panel); null outside a viewer or between turns. */
export const ReadingTurnContext = createContext<ReadingTurn | null>(null);

/** The reading turn of the viewer this component sits in ({@link ReadingTurnContext}). */
export function useReadingTurn(): ReadingTurn | null {
  return useContext(ReadingTurnContext);
}
