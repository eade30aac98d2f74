/**
 * The JSONL sources' line headlines by name (issue 29, issue 38): the one facet of a source kept
 * apart from its descriptor (lib/sources/formats), so only the viewer and the Timeline load the
 * diff library its edit counts need. An agent's reader writes each record's own headline.
 */
import { claudeFileEdits, claudeHeadline } from "@/lib/sources/claude-code/headline";
import { codexHeadline } from "@/lib/sources/codex/headline";
import type { LineHeadlines } from "@/lib/sources/common/source-format";
import type { TranscriptSource } from "@/lib/sources/common/source-names";

const HEADLINES: Partial<Record<TranscriptSource, LineHeadlines>> = {
  "claude-code": { parsesMessages: false, of: claudeHeadline, edits: claudeFileEdits },
  codex: { parsesMessages: true, of: (raw, _text, record, calls) => codexHeadline(raw, record, calls), edits: () => [] },
};

/** The headlines of `source`'s JSONL lines, or null for an agent behind the contract and an unknown name. */
export function lineHeadlines(source: string): LineHeadlines | null {
  return Object.hasOwn(HEADLINES, source) ? HEADLINES[source as TranscriptSource]! : null;
}
