/** Codex's JSONL lines as the per-line readers above lib/sources read them (issue 38): the light half of its descriptor, loaded by workers. */
import { codexHeadFacts } from "@/lib/sources/codex/head-facts";
import { codexDuplicateOf } from "@/lib/sources/codex/codex-echo";
import { compactCodexRecord } from "@/lib/sources/codex/compact";
import { isLegacyHeader, normalizeLegacyRecord } from "@/lib/sources/codex/legacy";
import { codexExtras } from "@/lib/sources/codex/viewer-extras";
import { codexFacts, codexFactsReader } from "@/lib/sources/codex/record-facts";
import { codexUsageRules } from "@/lib/sources/codex/usage";
import { isJsonObject } from "@/lib/sources/common/json-object";
import type { TranscriptFormat } from "@/lib/sources/common/source-format";

/**
 * Codex: `~/.codex/sessions/**\/rollout-*.jsonl`, envelope records (`{timestamp, type, payload}`,
 * `timestamp` first) or the pre-envelope legacy format, whose header decides how the rest reads.
 * A human message is logged twice (an `event_msg` and a response item).
 */
export const codexTranscript: TranscriptFormat = {
  name: "codex",
  compact: (record) => compactCodexRecord(isJsonObject(record.payload) ? record : normalizeLegacyRecord(record, record.timestamp, isLegacyHeader(record))),
  echoOf: codexDuplicateOf,
  viewer: {
    extras: codexExtras,
    bulkLine: (record) => record.record_type.startsWith("response_item"),
    timestampAt: "head",
  },
  facts: { of: (record) => codexFacts(record), reader: codexFactsReader, independentLines: false, promptsLoggedTwice: true },
  headFacts: codexHeadFacts,
  usage: codexUsageRules,
  analysis: { scan: "token-counts", readsUnavailable: "Codex rollouts have no Read tool or tool-results/ folder: files are read through shell commands" },
  callMarker: '"call_id"',
};
