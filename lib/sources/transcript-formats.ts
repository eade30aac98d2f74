/**
 * The per-line half of the source registry (lib/sources/formats): the JSONL readers of Claude
 * Code and Codex, whose workspace files are their own transcripts. The per-line readers above
 * lib/sources and their workers load only this half, not the agents' readers nor the headlines'
 * diff library (issue 38).
 */
import { claudeTranscript } from "@/lib/sources/claude-code/transcript";
import { codexTranscript } from "@/lib/sources/codex/transcript";
import type { TranscriptFormat } from "@/lib/sources/common/source-format";

/** The sources read from their own JSONL transcripts, in the pages' order. */
export const TRANSCRIPT_FORMATS: readonly TranscriptFormat[] = [claudeTranscript, codexTranscript];

const byName = new Map(TRANSCRIPT_FORMATS.map((f) => [f.name as string, f]));

/** The JSONL transcript format of `source` (an index row's source), or null for an agent behind the contract and an unknown name. */
export function transcriptFormat(source: string): TranscriptFormat | null {
  return byName.get(source) ?? null;
}
