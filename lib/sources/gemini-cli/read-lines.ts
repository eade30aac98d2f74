/**
 * A window's records of a Gemini CLI workspace file without the whole read (issue 38 speed: a
 * 2,000-line compact window of a 12 MB chat): the chat is replayed from each line's ids, found by
 * the SIMD scan kernel (lib/sources/common/json-members) without `JSON.parse` of whole messages,
 * and a message line is parsed only when its record is asked for.
 */
import type { AgentLines, AgentRecord, AgentToolCall, SourceWarning } from "@/lib/sources/common/agent-source";
import type { JsonObject } from "@/lib/sources/common/json-object";
import { MemberLines } from "@/lib/sources/common/json-members";
import { lazyByteCopyLines } from "@/lib/jsonl/text-lines";
import { messageRecord, unknownRecord } from "@/lib/sources/gemini-cli/parse";
import { GeminiReplay } from "@/lib/sources/gemini-cli/replay";

/** Top-level keys the replay reads, by name; every other member is checked and stepped over. */
const KEYS = ["id", "$set", "$rewindTo", "sessionId", "projectHash", "toolCalls"] as const;

/** What a line holds, for the records made on demand. */
const MESSAGE = 1;
const UNKNOWN = 2;

/**
 * The lines of Gemini workspace file `data` (`file` names it) as {@link parseGeminiLines} reads
 * them: `record(line)` equals its `records[line - 1]` (events, replaced versions' dropped calls,
 * triggers and subagent tasks included), `firstCall` and `firstRewindLine` answer as its records
 * would. One pass over the bytes replays the chat from each line's `id`, `$set`, `$rewindTo`,
 * header keys and its `toolCalls[].id` (headers, `$set` and `$rewindTo` lines parsed: small and
 * rare); a message or unknown record is parsed when first asked for, and kept.
 * Null — the caller parses the lines in full — unless `data` is UTF-8 whose only breaks are `\n`,
 * ending with one, and every line is one valid JSON object with no escaped key where the replay
 * reads keys (top level, `toolCalls` items). Never throws.
 */
export function readGeminiLines(data: Buffer, file: string): AgentLines | null {
  if (lazyByteCopyLines(data).bytes === undefined) return null;
  const scan = new MemberLines(data, KEYS);
  const { b, end } = scan;
  const replay = new GeminiReplay();
  // Each line's first byte in `data` (one past the last: the end).
  const starts: number[] = [];
  const kinds: number[] = [0];
  const built = new Map<number, AgentRecord>();
  // The lines whose calls have an id, in line order, by id (a line once per id).
  const callLines = new Map<string, number[]>();
  // The first line after a subagent header (user messages from then on are the parent agent's task).
  let subagentFrom = Infinity;

  let line = 0;
  for (let start = scan.start; start < end; ) {
    line++;
    const nl = b.indexOf(0x0a, start);
    const lineEnd = nl === -1 || nl > end ? end : nl;
    starts.push(start - scan.start);
    const members = scan.members(start, lineEnd);
    const lineStart = start;
    start = lineEnd + 1;
    if (members === null) return null;
    let kind = 0;
    if (scan.isString(members.$rewindTo)) built.set(line, replay.rewind(line, scan.json(members.$rewindTo) as string));
    else if (scan.isString(members.id)) {
      kind = MESSAGE;
      replay.message(line, scan.json(members.id) as string);
      for (const item of scan.items(members.toolCalls) ?? []) {
        if (b[item[0]] !== 0x7b) continue;
        const call = scan.members(item[0], item[1]);
        if (call === null) return null;
        if (!scan.isString(call.id)) continue;
        const id = scan.json(call.id) as string;
        if (id === "") continue;
        const lines = callLines.get(id);
        if (lines === undefined) callLines.set(id, [line]);
        else if (lines[lines.length - 1] !== line) lines.push(line);
      }
    } else if (scan.isObject(members.$set)) built.set(line, replay.set(line, scan.json(members.$set) as JsonObject));
    else if (line === 1 || (scan.isString(members.sessionId) && scan.isString(members.projectHash))) {
      const wasSubagent = replay.subagent;
      built.set(line, replay.header(line, JSON.parse(b.toString("utf8", lineStart, lineEnd)) as JsonObject));
      if (replay.subagent && !wasSubagent) subagentFrom = line + 1;
    } else kind = UNKNOWN;
    kinds.push(kind);
  }
  starts.push(data.length);
  const lineCount = line;
  for (const record of built.values()) replay.finish(record);

  // Warnings are parseLines' to give: the ones made here are dropped.
  const warnings: SourceWarning[] = [];
  const record = (at: number): AgentRecord | undefined => {
    if (!(at >= 1 && at <= lineCount) || !Number.isInteger(at)) return undefined;
    let made = built.get(at);
    if (made !== undefined) return made;
    const value = JSON.parse(data.toString("utf8", starts[at - 1]!, starts[at]! - 1)) as JsonObject;
    made = kinds[at] === MESSAGE ? messageRecord(at, value, at >= subagentFrom, file, warnings) : unknownRecord(at, value, file, warnings);
    warnings.length = 0;
    built.set(at, replay.finish(made));
    return made;
  };
  const firstCalls = new Map<string, AgentToolCall | undefined>();
  return {
    lineCount,
    record,
    firstCall(id) {
      if (firstCalls.has(id)) return firstCalls.get(id);
      let found: AgentToolCall | undefined;
      // A replaced version gave up its calls: the first line that kept them.
      for (const at of callLines.get(id) ?? []) {
        if (replay.superseded.has(at)) continue;
        found = record(at)!.calls.find((c) => c.id === id);
        if (found !== undefined) break;
      }
      firstCalls.set(id, found);
      return found;
    },
    firstRewindLine: () => replay.firstRewind,
  };
}
