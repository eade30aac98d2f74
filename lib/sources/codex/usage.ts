/** Codex's token counting rule (issue 28, contract §1.7): the increase of the cumulative `token_count` total, under the latest model. */
import { parseObjectBytes, plainObject, tokenCount, type CountedRequest, type RecordCounter, type UsageRules } from "@/lib/sources/common/usage-rules";

const CODEX_NEEDLES = [Buffer.from('"token_count"'), Buffer.from('"turn_context"'), Buffer.from('"session_meta"')];

/**
 * Codex: the increase of `token_count` `info.total_token_usage` (cumulative) between events, or
 * `last_token_usage` when no total is given, under the model of the latest `turn_context` (each
 * file counted on its own); input is reported without its cached part, which is `cache_read`.
 * Codex records no cache creation.
 */
export const codexUsageRules: UsageRules = {
  wanted: (view) => CODEX_NEEDLES.some((n) => view.indexOf(n) !== -1),
  build: parseObjectBytes,
  counts: (record) => record.type === "turn_context" || record.type === "session_meta" || (record.type === "event_msg" && plainObject(record.payload)?.type === "token_count"),
  session: (out) => ({ file: (kind) => codexCounter(kind, out) }),
  recordsCacheWrites: false,
};

type CodexTotal = { input: number; cached: number; output: number };

function codexUsage(v: unknown): CodexTotal | null {
  const u = plainObject(v);
  if (!u || typeof u.input_tokens !== "number") return null;
  return { input: tokenCount(u.input_tokens), cached: tokenCount(u.cached_input_tokens), output: tokenCount(u.output_tokens) };
}

/**
 * The Codex counting rule over one transcript's records in order: the model of the latest
 * `turn_context` or `session_meta`, and each `token_count` event's increase of the cumulative
 * total (its own last usage when there is no total, or when the total went back).
 */
function codexCounter(kind: "main" | "subagent", out: CountedRequest[]): RecordCounter {
  let model = "unknown";
  let previous: CodexTotal | null = null;
  return (record, ts, line) => {
    const payload = plainObject(record.payload);
    if (!payload) return;
    if (record.type === "turn_context" || record.type === "session_meta") {
      if (typeof payload.model === "string" && payload.model !== "") model = payload.model;
      return;
    }
    if (record.type !== "event_msg" || payload.type !== "token_count") return;
    const info = plainObject(payload.info);
    if (!info) return;
    const total = codexUsage(info.total_token_usage);
    let delta: CodexTotal | null;
    if (total !== null) {
      delta = previous === null ? total : { input: total.input - previous.input, cached: total.cached - previous.cached, output: total.output - previous.output };
      // A cumulative count that went back (a resumed or forked file) restarts from this event's own usage.
      if (delta.input < 0 || delta.cached < 0 || delta.output < 0) delta = codexUsage(info.last_token_usage);
      previous = total;
    } else {
      delta = codexUsage(info.last_token_usage);
    }
    if (delta === null || (delta.input === 0 && delta.cached === 0 && delta.output === 0)) return;
    const cached = Math.min(delta.cached, delta.input);
    out.push({ model, kind, ts, line, input: delta.input - cached, output: delta.output, cacheWrite: 0, cacheWrite1h: 0, cacheRead: cached });
  };
}
