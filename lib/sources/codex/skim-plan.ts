/** The skim plans of Codex records: which fields the analysis and the scan read. */
import { isJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { FULL, objectPlan, STAMP, type ObjectPlan } from "@/lib/sources/common/skim";

/** The counters of a `token_count` snapshot lib/sources/codex/token-usage reads (`readTokenSnapshot`, `CodexOutputTokens`), and those lib/usage counts. */
const TOKEN_INFO = objectPlan({
  total_token_usage: objectPlan({ input_tokens: FULL, cached_input_tokens: FULL, output_tokens: FULL, total_tokens: FULL }),
  last_token_usage: objectPlan({ input_tokens: FULL, cached_input_tokens: FULL, output_tokens: FULL }),
});

/**
 * What lib/sources/common/skim builds of a Codex rollout line (envelope format): the top-level
 * `type`, the payload's `type`, `role`, `cwd` and `model` (lib/usage's model of a `turn_context`),
 * and of a payload's `info` the token counters a `token_count` snapshot is read by (and lib/usage counts); the top-level `timestamp` is parsed from its bytes to epoch
 * ms (the skim's `timestampMs`, which the analyzer takes beside the record) and left out of it.
 * The rest of a rollout's bytes (instructions, tool output, reasoning, rate limits) is only
 * checked, never built. An object plan meeting another value builds it whole; the readers
 * take only objects there (`objectField`), as of the parsed record.
 */
export const CODEX_ENVELOPE: ObjectPlan = objectPlan({ timestamp: STAMP, type: FULL, payload: objectPlan({ type: FULL, role: FULL, cwd: FULL, model: FULL, info: TOKEN_INFO }) }, { shared: true });

/**
 * True when the Codex analysis (lib/sources/codex/analyze-core without fork fingerprints) reads
 * nothing of `record` beyond {@link CODEX_ENVELOPE}, so the skimmed record stands for the parsed
 * one. False, so the line is parsed whole, for what it reads further: `session_meta` (ids, cwd,
 * originator, fork parent, its payload timestamp), an `event_msg` `user_message` (trigger text),
 * and a `response_item` of role `user` (trigger and scaffolding text).
 * Legacy files are never skimmed (their records are rewritten first, lib/sources/codex/legacy).
 * @param record the skimmed envelope record.
 */
export function envelopeSuffices(record: JsonObject): boolean {
  const type = record.type;
  if (type === "session_meta") return false;
  const payload = record.payload;
  if (!isJsonObject(payload)) return true;
  if (type === "event_msg") return payload.type !== "user_message";
  if (type === "response_item") return payload.role !== "user";
  return true;
}

/**
 * What the forensics scan (lib/forensics/classify's Codex reading) takes from the skim of an
 * envelope-format rollout line: the top-level `type`, the payload's `type` and `role`, and of a
 * `token_count` payload's `info` the counters it reads; the top-level `timestamp` is parsed from
 * its bytes. A line of a kind the classifier reads further is parsed whole
 * ({@link codexScanSuffices}). Most of a rollout's bytes are `turn_context` instructions,
 * command output events and reasoning, which the scan reads only by kind (issue 13: the first
 * `session_overview` of the 321 MB real-shaped rollout parsed every byte).
 */
export const CODEX_SCAN_FIELDS: ObjectPlan = objectPlan(
  {
    timestamp: STAMP,
    type: FULL,
    payload: objectPlan({
      type: FULL,
      role: FULL,
      info: objectPlan({
        total_token_usage: objectPlan({ input_tokens: FULL, output_tokens: FULL, cached_input_tokens: FULL }),
        last_token_usage: objectPlan({ input_tokens: FULL, cached_input_tokens: FULL }),
      }),
    }),
  },
  { shared: true },
);

/**
 * True when the forensics classifier reads nothing of `record` (skimmed by
 * {@link CODEX_SCAN_FIELDS}, in an envelope-format rollout) beyond the skimmed fields and the
 * timestamp, so its facts are those of the parsed line. False, so the line is parsed whole,
 * for: a record without an object `payload` (normalized as a legacy item first), a
 * `session_meta` (its timestamp may be its payload's), an `event_msg` `user_message`, `error`,
 * `stream_error` or `agent_message` (texts), and a `response_item` message or tool call or
 * output (texts, names, ids, arguments, output).
 * @param record the skimmed record.
 */
export function codexScanSuffices(record: JsonObject): boolean {
  const payload = record.payload;
  if (!isJsonObject(payload)) return false;
  const type = record.type;
  if (type === "session_meta") return false;
  if (type === "event_msg") return !SCAN_READ_EVENTS.has(payload.type);
  if (type === "response_item") return !SCAN_READ_ITEMS.has(payload.type);
  return true;
}
const SCAN_READ_EVENTS = new Set<unknown>(["user_message", "error", "stream_error", "agent_message"]);
const SCAN_READ_ITEMS = new Set<unknown>(["message", "function_call", "custom_tool_call", "local_shell_call", "web_search_call", "function_call_output", "custom_tool_call_output"]);
