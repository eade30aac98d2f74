/** What the viewer shows of one subagent transcript (issue 29): its own turns, its own overview, the parent line that spawned it. */
import fs from "node:fs/promises";

import { readLineRange, type LineIndex } from "@/lib/jsonl/line-index";
import { analyzeClaudeTranscript } from "@/lib/sources/claude-code/analyze";
import type { IndexTurn } from "@/lib/sources/common/schema";
import { asObject, parseJsonObject } from "@/lib/sources/common/json-object";
import { nonBlankString } from "@/lib/sources/common/py-compat";

/** Bytes read per step while looking for the spawning line in the main transcript. */
const SCAN_CHUNK_BYTES = 8 << 20;
/** Lines before the first mention of the agent searched for the call that spawned it. */
const SPAWN_LOOKBACK_LINES = 400;
/** Lines of a subagent transcript read for its overview (its tool calls, last reply). */
const OVERVIEW_MAX_LINES = 20_000;

/** A subagent transcript's overview: the task it got, its tool calls, its last reply, where the parent spawned it. */
export type SubagentOverview = {
  /** 1-based line of the main transcript holding the call that spawned the agent (or its first mention); null when not found. */
  spawn_line: number | null;
  /** The task the agent got (its first user message), bounded to 2,000 characters; null when none. */
  prompt: string | null;
  /** Tool calls the agent made (tool_use parts), counted over its first OVERVIEW_MAX_LINES lines. */
  tool_calls: number;
  /** The agent's last text reply, bounded to 2,000 characters; null when none. */
  last_reply: string | null;
};

/**
 * A subagent transcript's turns, split as a Claude Code session's are (contract §1.7: a turn
 * per human trigger); a transcript without a trigger is one turn over all its lines.
 * @throws AppError not_found | io_error when the file cannot be read.
 */
export async function subagentTurns(filePath: string, lineCount: number): Promise<IndexTurn[]> {
  if (lineCount === 0) return [];
  const analysis = await analyzeClaudeTranscript(filePath, null);
  if (analysis.turns.length > 0) return analysis.turns;
  return [{ turn_ref: "T0001", turn_start_line: 1, turn_end_line: lineCount }];
}

/**
 * The overview of subagent `agentId` (file stem `agent-<id>`) of the main transcript at
 * `mainPath`: the spawning line is the `Task`/`Agent` call whose id the first record naming the
 * agent (`"agentId":"<id>"`) points to (`parentToolUseID`, or a result's `tool_use_id`).
 */
export async function subagentOverview(mainPath: string, mainIndex: LineIndex, agentPath: string, agentIndex: LineIndex, agentId: string): Promise<SubagentOverview> {
  const [spawn_line, body] = await Promise.all([spawnLine(mainPath, mainIndex, agentId.replace(/^agent-/, "")), agentBody(agentPath, agentIndex)]);
  return { spawn_line, ...body };
}

async function agentBody(filePath: string, index: LineIndex): Promise<Omit<SubagentOverview, "spawn_line">> {
  const last = Math.min(index.lineCount, OVERVIEW_MAX_LINES);
  if (last === 0) return { prompt: null, tool_calls: 0, last_reply: null };
  let prompt: string | null = null;
  let lastReply: string | null = null;
  let toolCalls = 0;
  for (const { text } of await readLineRange(filePath, index, 1, last)) {
    const record = parseJsonObject(text);
    const message = asObject(record?.message);
    const content = message?.content;
    const texts = typeof content === "string" ? [content] : Array.isArray(content) ? content.map(asObject).filter((p) => p?.type === "text").map((p) => String(p!.text ?? "")) : [];
    if (Array.isArray(content)) toolCalls += content.filter((p) => asObject(p)?.type === "tool_use").length;
    const joined = texts.join("\n").trim();
    if (!joined) continue;
    if (record?.type === "user" && prompt === null) prompt = joined.slice(0, 2000);
    if (record?.type === "assistant") lastReply = joined.slice(0, 2000);
  }
  return { prompt, tool_calls: toolCalls, last_reply: lastReply };
}

async function spawnLine(filePath: string, index: LineIndex, agentId: string): Promise<number | null> {
  const offset = await findBytes(filePath, Buffer.from(`"agentId":"${agentId}"`));
  if (offset === null) return null;
  const mention = lineAt(index, offset);
  const [line] = await readLineRange(filePath, index, mention, mention);
  const record = line ? parseJsonObject(line.text) : null;
  const content = asObject(record?.message)?.content;
  const resultId = Array.isArray(content) ? nonBlankString(asObject(content.find((p) => asObject(p)?.type === "tool_result"))?.tool_use_id) : null;
  const callId = nonBlankString(record?.parentToolUseID) ?? resultId;
  if (callId === null) return mention;
  const from = Math.max(1, mention - SPAWN_LOOKBACK_LINES);
  const lines = await readLineRange(filePath, index, from, mention);
  const needle = `"id":"${callId}"`;
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]!.text.includes(needle)) return lines[i]!.line;
  return mention;
}

/** The 1-based line holding byte `offset` (binary search over the line starts). */
function lineAt(index: LineIndex, offset: number): number {
  let lo = 0;
  let hi = index.lineCount - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (index.starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** Byte offset of the first `needle` in the file, read in chunks (overlapping by the needle's length); null when absent. */
async function findBytes(filePath: string, needle: Buffer): Promise<number | null> {
  const handle = await fs.open(filePath, "r");
  try {
    const buf = Buffer.alloc(SCAN_CHUNK_BYTES + needle.length);
    let position = 0;
    let carry = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, carry, SCAN_CHUNK_BYTES, position);
      if (bytesRead === 0) return null;
      const filled = carry + bytesRead;
      const at = buf.subarray(0, filled).indexOf(needle);
      if (at !== -1) return position - carry + at;
      carry = Math.min(needle.length - 1, filled);
      buf.copy(buf, 0, filled - carry, filled);
      position += bytesRead;
    }
  } finally {
    await handle.close();
  }
}
