/** The skim plans of Claude Code records: which fields the scan and the turn analysis read. */
import { FULL, objectPlan, STAMP, TEXT, type ObjectPlan } from "@/lib/sources/common/skim";

// What lib/sources/common/skim builds of a Claude Code line, for each of its two readers.

const PART = objectPlan({
  type: FULL,
  tool_use_id: FULL,
  is_error: FULL,
  name: FULL,
  id: FULL,
  text: TEXT,
  input: objectPlan({ command: FULL, subagent_type: FULL }),
});
const USAGE = objectPlan({ input_tokens: FULL, output_tokens: FULL, cache_read_input_tokens: FULL, cache_creation_input_tokens: FULL });
const MESSAGE = objectPlan({ role: FULL, id: FULL, usage: USAGE, content: { items: PART, orElse: TEXT } });

/**
 * Every top-level field lib/forensics/classify.ts and lib/sources/claude-code/classify-record.ts
 * read (the forensics scan, issue 9): `type`, `subtype`, `isSidechain`, `isMeta`,
 * `message.role/id/usage/content` parts' `type`, ids, `name`, `is_error`, `text`,
 * `input.command/subagent_type`…; tool output, `toolUseResult`, `snapshot` and progress `data`
 * are skipped.
 */
export const SCAN_FIELDS: ObjectPlan = objectPlan({
  type: FULL,
  subtype: FULL,
  timestamp: STAMP,
  isSidechain: FULL,
  sourceToolAssistantUUID: TEXT,
  isMeta: FULL,
  isCompactSummary: FULL,
  content: TEXT,
  isApiErrorMessage: FULL,
  error: TEXT,
  message: MESSAGE,
});

/** The tokens of `message.usage` lib/usage counts. */
const USAGE_TOKENS = objectPlan({ input_tokens: FULL, output_tokens: FULL, cache_read_input_tokens: FULL, cache_creation_input_tokens: FULL, cache_creation: objectPlan({ ephemeral_1h_input_tokens: FULL }) });

/**
 * What lib/usage builds of a line it counts (the whole line's grammar checked as `JSON.parse`
 * checks it, only these fields built): an assistant record's text, thinking and tool input, most
 * of its bytes, are never decoded.
 */
export const CLAUDE_USAGE_FIELDS: ObjectPlan = objectPlan({ type: FULL, timestamp: FULL, requestId: FULL, message: objectPlan({ id: FULL, model: FULL, usage: USAGE_TOKENS }) });

const TURN_MESSAGE = objectPlan({ role: FULL, id: FULL, model: FULL, usage: USAGE_TOKENS, content: { items: objectPlan({ type: FULL }), orElse: TEXT } });
const TURN_RECORD = {
  type: FULL,
  requestId: FULL,
  timestamp: STAMP,
  isSidechain: FULL,
  sourceToolAssistantUUID: TEXT,
  isMeta: FULL,
  isCompactSummary: FULL,
  uuid: FULL,
  message: TURN_MESSAGE,
};
/**
 * The fields turn splitting and per-turn usage read (classify-record's trigger rules, turn-usage's
 * identity and `output_tokens`; contract §1.7–§1.8), the stream's `cwd` and `sessionId`, and those
 * of {@link CLAUDE_USAGE_FIELDS} (timestamp aside, read as `timestampMs`): prepare counts a
 * session's usage from the records its analysis builds (issue 25).
 */
export const TURN_FIELDS: ObjectPlan = objectPlan({ ...TURN_RECORD, cwd: FULL, sessionId: FULL });
/** {@link TURN_FIELDS} without `cwd` and `sessionId`, once the stream has both. */
export const TURN_FIELDS_ONLY: ObjectPlan = objectPlan(TURN_RECORD);
