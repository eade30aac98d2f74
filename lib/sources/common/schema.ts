/** Types shared by the source readers and the workspace (contract §1.1, §1.4). */
import * as z from "zod";

import { AGENT_SOURCE_NAMES } from "@/lib/sources/common/agent-source";

/**
 * Types shared by the source readers and the workspace above them (contract §1.1, §1.4). They
 * live here, in the lowest folder that needs them, so `lib/sources` never imports upward.
 */

/** Source names exactly as prompt-diary writes them (contract §1.1). */
export const SOURCE_NAMES = ["claude-code", "codex"] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];

/** Every transcript source an index row can name: prompt-diary's two, then the agents behind the source contract (issue 38). */
export const TRANSCRIPT_SOURCES = [...SOURCE_NAMES, ...AGENT_SOURCE_NAMES] as const;
export type TranscriptSource = (typeof TRANSCRIPT_SOURCES)[number];

/** How pages name each source. */
export const SOURCE_LABELS: Record<TranscriptSource, string> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  "gemini-cli": "Gemini CLI",
  "copilot-cli": "Copilot CLI",
  opencode: "OpenCode",
  aider: "Aider",
};

/** Whether `value` names a transcript source. */
export function isTranscriptSource(value: unknown): value is TranscriptSource {
  return typeof value === "string" && (TRANSCRIPT_SOURCES as readonly string[]).includes(value);
}

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
