/** A physical line turned into a compact record (contract §4.4), dispatched by source. */
import { isUtf8 } from "node:buffer";

import { sha256Hex } from "./sha256";

import type { AgentLines, AgentTranscript } from "@/lib/sources/common/agent-source";
import { genericBody, type CompactBody } from "@/lib/sources/common/compact-fields";
import { type JsonObject, parseJsonObject } from "@/lib/sources/common/json-object";
import type { TranscriptFormat } from "@/lib/sources/common/source-format";
import { transcriptFormat } from "@/lib/sources/transcript-formats";
import { compactAgentBody } from "./compact-agent";
import type { CompactRecord } from "./schema";

/** One physical line: 1-based `line` and its decoded text without the line terminator. */
export type PhysicalLine = { line: number; text: string; bytes?: Buffer };

/**
 * Builds the classic compact record of one physical line (seed 000 compact fields, contract
 * §4.4). `text` is the line decoded as UTF-8 with replacement, without its terminator.
 * `raw_bytes` / `raw_sha256` are the UTF-8 length and SHA-256 hex of `text`. `source` is the
 * index row's source: a JSONL transcript's line is compacted by its format (lib/sources/formats); an agent session's line is
 * read off its `transcript` (the whole file's replay, lib/sources/agent-transcripts: see
 * lib/session-reader/compact-agent); without one, any other source yields generic records. Every
 * field is present; `duplicate_of` is `null` (see {@link buildCompactRecords} for Codex echoes).
 * Never throws on line content.
 */
export function buildCompactRecord(input: { line: number; text: string; source: string }, transcript: AgentTranscript | null = null): CompactRecord {
  const agent = transcript === null ? null : compactAgentBody(transcript, input.line);
  return toRecord(input, agent ?? compactBody(parseJsonObject(input.text), transcriptFormat(input.source)), null);
}

/**
 * Builds compact records for a window of physical lines, in the given order, then marks echoes
 * (the source format's `echoOf`: Codex) (contract §1.7 / §4.3 step 1): a user `event_msg` repeating the response on the line
 * before, or an assistant `event_msg` repeated by the response on the line after, with
 * identical text within 0..100 ms, becomes summary `"Echo of message at line N."`,
 * `text_preview: null`, `truncated: true`, `duplicate_of: N`.
 *
 * Neighbours are looked up by line number among `lines` plus the optional `context` lines
 * (the lines just outside the window, which are consulted but not returned). prompt-diary
 * consults the whole file, so pass `context` to match it at window edges.
 *
 * An agent session's lines are read off `transcript`, the whole file's replay (as in
 * {@link buildCompactRecord}); their lines are not parsed here.
 */
export function buildCompactRecords(
  lines: readonly PhysicalLine[],
  source: string,
  context: { before?: PhysicalLine | null; after?: PhysicalLine | null } = {},
  transcript: AgentTranscript | AgentLines | null = null,
): CompactRecord[] {
  if (transcript !== null) {
    return lines.map((physical) => toRecord(physical, compactAgentBody(transcript, physical.line) ?? compactBody(parseJsonObject(physical.text), transcriptFormat(source)), null));
  }
  const format = transcriptFormat(source);
  const parsed = new Map<number, JsonObject | null>();
  for (const { line, text } of lines) parsed.set(line, parseJsonObject(text));
  const neighbours = new Map<number, string>();
  for (const extra of [context.before, context.after]) if (extra) neighbours.set(extra.line, extra.text);
  const neighbour = (line: number): JsonObject | null => {
    if (parsed.has(line)) return parsed.get(line) ?? null;
    const text = neighbours.get(line);
    return text === undefined ? null : parseJsonObject(text);
  };

  return lines.map((physical) => {
    const record = parsed.get(physical.line) ?? null;
    const body = compactBody(record, format);
    const duplicateOf = format?.echoOf !== undefined && record !== null ? format.echoOf(physical.line, record, neighbour) : null;
    if (duplicateOf === null) return toRecord(physical, body, null);
    const echo = { ...body, summary: `Echo of message at line ${duplicateOf}.`, text_preview: null, truncated: true };
    return toRecord(physical, echo, duplicateOf);
  });
}

/** A parsed line's body by its source's format; a source without one gets generic records. */
function compactBody(record: JsonObject | null, format: TranscriptFormat | null): CompactBody {
  if (record === null) return genericBody(null);
  return format === null ? genericBody(record) : format.compact(record);
}

function toRecord(physical: PhysicalLine, body: CompactBody, duplicateOf: number | null): CompactRecord {
  // The file's own bytes are the line's UTF-8 unless they are not valid UTF-8 (decoding replaced
  // something); only then re-encode the decoded text, as Python's `line.encode()` after
  // decode-with-replacement does. (Valid bytes decode and encode back to themselves: the text is not needed.)
  const bytes = physical.bytes !== undefined && isUtf8(physical.bytes) ? physical.bytes : Buffer.from(physical.text, "utf8");
  return {
    line: physical.line,
    record_type: body.record_type,
    role: body.role,
    content_kinds: body.content_kinds,
    summary: body.summary,
    text_preview: body.text_preview,
    tool_uses: body.tool_uses,
    tool_results: body.tool_results,
    raw_bytes: bytes.length,
    raw_sha256: sha256Hex(bytes),
    truncated: body.truncated,
    duplicate_of: duplicateOf,
  };
}
