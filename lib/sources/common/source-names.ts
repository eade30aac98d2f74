/**
 * The transcript sources' names and labels (contract §1.1, issue 38), apart from the schemas so
 * the per-line readers and the registry load them without zod.
 */
import { AGENT_SOURCE_NAMES } from "@/lib/sources/common/agent-source";

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
