/** Claude Code's token counting rule (issue 28, contract §2.5): each assistant message once, with its last line's usage. */
import { CLAUDE_USAGE_FIELDS } from "@/lib/sources/claude-code/skim-plans";
import { BLANK, skimLine } from "@/lib/sources/common/skim";
import { parseObjectBytes, plainObject, tokenCount, type CountedRequest, type UsageRules } from "@/lib/sources/common/usage-rules";

const USAGE_NEEDLE = Buffer.from('"usage"');
const ASSISTANT_NEEDLE = Buffer.from('"assistant"');

/**
 * Claude Code: each assistant message counted once by `message.id` + `requestId` (the id alone
 * when a record has no `requestId`) with the usage of its LAST line (the final streamed count),
 * across the main transcript and its subagents; a line without `message.id` is counted on its
 * own; `<synthetic>` messages (no API call) are not counted.
 */
export const claudeUsageRules: UsageRules = {
  // Only an assistant record carries a counted usage: a line without both tokens is never built.
  wanted: (view) => view.indexOf(USAGE_NEEDLE) !== -1 && view.indexOf(ASSISTANT_NEEDLE) !== -1,
  // The skim settles most lines; one it cannot (escaped keys, deep nesting, not an object) is parsed whole.
  build(bytes, start, end) {
    const skimmed = skimLine(bytes, start, end, CLAUDE_USAGE_FIELDS);
    return skimmed === null || skimmed === BLANK ? parseObjectBytes(bytes, start, end) : skimmed.record;
  },
  counts: (record) => record.type === "assistant" && plainObject(plainObject(record.message)?.usage) !== null,
  session(out) {
    const byId = new Map<string, number>();
    return { file: (kind) => (record, ts, line) => countClaudeRecord(record, ts, line, kind, out, byId) };
  },
  recordsCacheWrites: true,
};

/** An assistant record's `message.usage` becomes a request, or replaces the earlier line's of the same message. */
function countClaudeRecord(record: Record<string, unknown>, ts: number, line: number, kind: "main" | "subagent", out: CountedRequest[], byId: Map<string, number>): void {
  if (record.type !== "assistant") return;
  const message = plainObject(record.message);
  const usage = plainObject(message?.usage);
  if (!message || !usage) return;
  const model = typeof message.model === "string" && message.model !== "" ? message.model : "unknown";
  if (model === "<synthetic>") return;
  const creation = plainObject(usage.cache_creation);
  const request: CountedRequest = {
    model,
    kind,
    ts,
    line,
    input: tokenCount(usage.input_tokens),
    output: tokenCount(usage.output_tokens),
    cacheWrite: tokenCount(usage.cache_creation_input_tokens),
    cacheWrite1h: Math.min(tokenCount(creation?.ephemeral_1h_input_tokens), tokenCount(usage.cache_creation_input_tokens)),
    cacheRead: tokenCount(usage.cache_read_input_tokens),
  };
  const id = typeof message.id === "string" && message.id !== "" ? message.id : null;
  if (id === null) {
    out.push(request);
    return;
  }
  // Older and re-serialized transcripts carry no requestId: the message id alone is the key (as ccusage's).
  const key = `${id}\u0000${typeof record.requestId === "string" ? record.requestId : ""}`;
  const at = byId.get(key);
  if (at === undefined) {
    byId.set(key, out.length);
    out.push(request);
  } else {
    // A later line of the same streamed message: its usage is the more final count.
    out[at] = { ...request, kind: out[at]!.kind };
  }
}
