/** Types shared by the source readers and the workspace (contract §1.1, §1.4). */
import * as z from "zod";

/**
 * Types shared by the source readers and the workspace above them (contract §1.1, §1.4). They
 * live here, in the lowest folder that needs them, so `lib/sources` never imports upward.
 */

/** Source names exactly as prompt-diary writes them (contract §1.1). */
export const SOURCE_NAMES = ["claude-code", "codex"] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];

/** One `turns[]` item of a `sessions.index.jsonl` row (contract §1.4). */
export const indexTurnSchema = z.object({
  turn_ref: z.string(),
  turn_start_line: z.number().int(),
  turn_end_line: z.number().int(),
});
export type IndexTurn = z.infer<typeof indexTurnSchema>;
