/** Codex's rollout as every layer above lib/sources reads it (issue 38: one descriptor per source). */
import { codexHeadFacts } from "@/lib/sources/codex/head-facts";
import { codexDuplicateOf } from "@/lib/sources/codex/codex-echo";
import { compactCodexRecord } from "@/lib/sources/codex/compact";
import { codexHeadline } from "@/lib/sources/codex/headline";
import { isLegacyHeader, normalizeLegacyRecord } from "@/lib/sources/codex/legacy";
import { codexExtras } from "@/lib/sources/codex/viewer-extras";
import { codexFacts, codexFactsReader } from "@/lib/sources/codex/record-facts";
import { codexForkHistory } from "@/lib/sources/codex/select";
import { codexUsageRules } from "@/lib/sources/codex/usage";
import { isJsonObject } from "@/lib/sources/common/json-object";
import { SOURCE_LABELS } from "@/lib/sources/common/schema";
import { readWorkscopeId } from "@/lib/sources/common/workscope";
import type { SourceFormat } from "@/lib/sources/common/source-format";

/**
 * Codex: `~/.codex/sessions/**\/rollout-*.jsonl`, envelope records (`{timestamp, type, payload}`,
 * `timestamp` first) or the pre-envelope legacy format, whose header decides how the rest reads.
 * A human message is logged twice (an `event_msg` and a response item).
 */
export const codexFormat: SourceFormat<"codex"> = {
  name: "codex",
  label: SOURCE_LABELS.codex,
  agent: null,
  workscopeId: readWorkscopeId,
  transcript: {
    compact: (record) => compactCodexRecord(isJsonObject(record.payload) ? record : normalizeLegacyRecord(record, record.timestamp, isLegacyHeader(record))),
    echoOf: codexDuplicateOf,
    headline: { parsesMessages: true, of: (raw, _text, record, calls) => codexHeadline(raw, record, calls), edits: () => [] },
    viewer: {
      extras: codexExtras,
      bulkLine: (record) => record.record_type.startsWith("response_item"),
      timestampAt: "head",
    },
    facts: { of: (record) => codexFacts(record), reader: codexFactsReader, independentLines: false, promptsLoggedTwice: true },
    headFacts: codexHeadFacts,
    usage: codexUsageRules,
    forkHistory: codexForkHistory,
    analysis: { scan: "token-counts", readsUnavailable: "Codex rollouts have no Read tool or tool-results/ folder: files are read through shell commands" },
    callMarker: '"call_id"',
  },
};
