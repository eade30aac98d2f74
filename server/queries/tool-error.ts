// Maps a tool's refusal of a page's own read (invalid input, a malformed file) to a value the page renders as a clear error.
import { isAppError } from "@/lib/errors";

/** A page's read a tool refused: its code, message and hint, shown as an error panel (never a 500). */
export type ToolPageError = { kind: "tool_error"; code: string; message: string; hint: string | null };

/** True for a {@link ToolPageError}. */
export const isToolPageError = (value: unknown): value is ToolPageError => typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "tool_error";

/**
 * Runs a page's tool read; an AppError `invalid_input` or `parse_error` (e.g. an evidence file
 * symlinked out of the workspace: "resolves outside", issue 26) comes back as a
 * {@link ToolPageError} for the page to render; anything else is rethrown.
 */
export async function orToolError<T>(read: () => Promise<T>): Promise<T | ToolPageError> {
  try {
    return await read();
  } catch (error) {
    if (isAppError(error) && (error.code === "invalid_input" || error.code === "parse_error")) {
      const hint = typeof error.details.hint === "string" ? error.details.hint : null;
      return { kind: "tool_error", code: error.code, message: error.message, hint };
    }
    throw error;
  }
}
