/** Types shared by the source readers and the workspace (contract §1.1, §1.4). */
import * as z from "zod";

/**
 * Types shared by the source readers and the workspace above them (contract §1.1, §1.4). They
 * live here, in the lowest folder that needs them, so `lib/sources` never imports upward.
 */

export { isTranscriptSource, SOURCE_LABELS, SOURCE_NAMES, TRANSCRIPT_SOURCES, type SourceName, type TranscriptSource } from "@/lib/sources/common/source-names";

/**
 * A session's status, seed 004's adapted to transcripts (issue 9): `completed`, `active` (its last
 * record within 10 minutes of now, or no reply yet) or `errored`. lib/forensics/status decides it
 * for transcripts, lib/sources/control-plane for a Control Plane ledger; the list rows carry it.
 */
export const SESSION_STATUSES = ["completed", "active", "errored"] as const;
export const sessionStatusSchema = z.enum(SESSION_STATUSES);
export type SessionStatus = z.infer<typeof sessionStatusSchema>;

/** One `turns[]` item of a `sessions.index.jsonl` row (contract §1.4). */
export const indexTurnSchema = z.object({
  turn_ref: z.string(),
  turn_start_line: z.number().int(),
  turn_end_line: z.number().int(),
});
export type IndexTurn = z.infer<typeof indexTurnSchema>;
