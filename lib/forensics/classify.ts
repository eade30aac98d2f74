/** Transcript lines classified into timeline events, tool calls, results and usage facts for the forensics scan. */
import type { JsonObject } from "@/lib/sources/common/json-object";
import { baseFacts, type RecordFacts } from "@/lib/sources/common/record-facts";
import type { LineFactsReader } from "@/lib/sources/common/source-format";
import { parseAwareTimestamp } from "@/lib/sources/common/timestamps";
import { transcriptFormat } from "@/lib/sources/transcript-formats";

// The facts and each source's classifier live in lib/sources (issue 38: one descriptor per source).
export { MALFORMED_FACTS, TOOL_FAMILIES, toolFamily, type Actor, type RecordFacts, type ToolCallFact, type ToolFamily, type ToolResultFact, type UsageFact } from "@/lib/sources/common/record-facts";

/**
 * Classifies one parsed record of a transcript on its own, by the format of `source` (the index
 * row's source; lib/sources/formats). A source without a JSONL format gets generic facts (its
 * type and timestamp, a system event). Pure; never throws on content.
 */
export function classifyRecord(record: JsonObject, source: string): RecordFacts {
  return transcriptFormat(source)?.facts.of(record) ?? genericFacts(record);
}

/**
 * A reader of one transcript's lines in order for the forensics scan, by the format of `source`;
 * a source without a JSONL format has every line parsed into generic facts.
 */
export function lineFactsReader(source: string, options: { skim?: boolean } = {}): LineFactsReader {
  return transcriptFormat(source)?.facts.reader(options) ?? { plan: () => null, skimmed: () => null, parsed: genericFacts };
}

function genericFacts(record: JsonObject): RecordFacts {
  const type = typeof record.type === "string" ? record.type : "record";
  return baseFacts(parseAwareTimestamp(record.timestamp), type, "system");
}
