import { isJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { FULL, objectPlan, STAMP, type ObjectPlan } from "@/lib/sources/common/skim";

/** The counters of a `token_count` snapshot lib/sources/codex/token-usage reads (`readTokenSnapshot`, `CodexOutputTokens`). */
const TOKEN_INFO = objectPlan({
  total_token_usage: objectPlan({ input_tokens: FULL, output_tokens: FULL, total_tokens: FULL }),
  last_token_usage: objectPlan({ output_tokens: FULL }),
});

/**
 * What lib/sources/common/skim builds of a Codex rollout line (envelope format): the top-level
 * `type`, the payload's `type`, `role` and `cwd`, and of a payload's `info` the token counters a
 * `token_count` snapshot is read by; the top-level `timestamp` is parsed from its bytes to epoch
 * ms (the skim's `timestampMs`, which the analyzer takes beside the record) and left out of it. Most of a rollout's bytes are
 * `turn_context` instructions, tool output and reasoning, which the analysis reads only by these
 * fields, and a `token_count` line's are mostly rate limits (issue 13: prepare without
 * `JSON.parse` of every byte). An object plan meeting another value builds it whole; the readers
 * take only objects there (`objectField`), as of the parsed record.
 */
export const CODEX_ENVELOPE: ObjectPlan = objectPlan({ timestamp: STAMP, type: FULL, payload: objectPlan({ type: FULL, role: FULL, cwd: FULL, info: TOKEN_INFO }) }, { shared: true });

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
