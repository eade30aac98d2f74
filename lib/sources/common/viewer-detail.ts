/** What the viewer shows beside a line besides its compact record, as each source's reader builds it. */
import type { ViewerExtras } from "@/lib/sources/common/compact-record";

/** Detail text is clipped to this many characters (the viewer clamps it further). */
export const DETAIL_CHARS = 4_000;

/** Detail text trimmed, null when blank, clipped to {@link DETAIL_CHARS} with `…`. */
export const clipDetail = (text: string | null): string | null => {
  if (text === null) return null;
  const trimmed = text.trim();
  if (trimmed === "") return null;
  return trimmed.length > DETAIL_CHARS ? `${trimmed.slice(0, DETAIL_CHARS - 1)}…` : trimmed;
};

/** The extras a source's reader reads off one parsed line: its group, slash command and detail. */
export type LineExtras = Omit<ViewerExtras, "timestamp" | "headline" | "edits">;
/** A conversation line with no command or detail. */
export const CONVERSATION: LineExtras = { group: "conversation", command: null, detail: null };
