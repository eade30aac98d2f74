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

const TURN_MESSAGE = objectPlan({ role: FULL, id: FULL, usage: objectPlan({ output_tokens: FULL }), content: { items: objectPlan({ type: FULL }), orElse: TEXT } });
const TURN_RECORD = {
  type: FULL,
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
 * identity and `output_tokens`; contract §1.7–§1.8), plus the stream's `cwd` and `sessionId`.
 */
export const TURN_FIELDS: ObjectPlan = objectPlan({ ...TURN_RECORD, cwd: FULL, sessionId: FULL });
/** {@link TURN_FIELDS} without `cwd` and `sessionId`, once the stream has both. */
export const TURN_FIELDS_ONLY: ObjectPlan = objectPlan(TURN_RECORD);
