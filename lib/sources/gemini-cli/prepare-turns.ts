/**
 * Prepare's turns-only replay of a Gemini CLI workspace file (issue 38 speed): the same turns,
 * prompt times and warnings as {@link parseGeminiLines}, read from each line's bytes by the SIMD
 * scan kernel (lib/jsonl/json-scan) without `JSON.parse` of whole messages.
 */
import { isUtf8 } from "node:buffer";

import { DATA_OFFSET, JsonScanMemory, memberState } from "@/lib/jsonl/json-scan";
import type { ExportedLines, PreparedTurns, SourceWarning } from "@/lib/sources/common/agent-source";
import { isJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { parseAwareTimestamp } from "@/lib/sources/common/timestamps";
import { isKnownMessageType, partsText } from "@/lib/sources/gemini-cli/message-facts";

/** The scan memory of this thread (grown to the largest chat read, up to {@link KEEP_MEMORY_BYTES}). */
let shared: JsonScanMemory | null = null;
const KEEP_MEMORY_BYTES = 64 << 20;

/** Top-level keys the replay reads, by name; every other member is checked and stepped over. */
const KEYS = ["id", "type", "content", "timestamp", "$set", "$rewindTo", "sessionId", "projectHash"] as const;
type Key = (typeof KEYS)[number];
const KEY_BYTES = KEYS.map((k) => Buffer.from(`"${k}"`));
/** `nextMember`'s mask: bit n for a key of n bytes. */
const WANTED = KEYS.reduce((mask, k) => mask | (1 << k.length), 0);

/** A line's read members: [valueStart, valueEnd) of each key met (the last one, as JSON.parse keeps). */
type Members = Partial<Record<Key, [number, number]>>;

/** A message in the replayed list: as parse.ts's `Entry`. */
type Entry = { id: string; line: number; onSet: boolean };

/**
 * The turns (a trigger's line to the line before the next), each turn's prompt time (ISO `Z` or
 * null) and the warnings that {@link parseGeminiLines} gives for `exported`'s lines (`file` names
 * them), replayed as it does (same-id replacement takes the older line's trigger unless it came
 * from a `$set`; `$set.messages` and `$rewindTo` reshape the list; a subagent header stops
 * triggers) reading only `id`, `type`, `timestamp` and a user message's `content` of each message
 * (a header, a `$set` or an unknown record, small and rare, is parsed).
 * Null — the caller parses the lines in full — unless the export holds its `bytes` (no line holds
 * a break), they are UTF-8, and every line is one valid JSON object (no blank, malformed or
 * continued line) with no escaped top-level key. Never throws.
 */
export function prepareGeminiTurns(exported: ExportedLines, file: string): PreparedTurns | null {
  const data = exported.bytes;
  if (data === undefined || exported.objects !== undefined || !isUtf8(data)) return null;
  const memory = data.length > KEEP_MEMORY_BYTES ? new JsonScanMemory() : (shared ??= new JsonScanMemory());
  const b = memory.load(data, 0, data.length);
  const state = memberState(b.buffer);
  const end = DATA_OFFSET + data.length;
  const text = (span: [number, number]): string => b.toString("utf8", span[0], span[1]);
  const json = (span: [number, number] | undefined): unknown => (span === undefined ? undefined : JSON.parse(text(span)));
  const isString = (span: [number, number] | undefined): boolean => span !== undefined && b[span[0]] === 0x22;

  // The bytes are the lines, each followed by `\n` (their strings are not read: not decoded).
  let lineCount = 0;
  for (let nl = data.indexOf(0x0a); nl !== -1; nl = data.indexOf(0x0a, nl + 1)) lineCount++;
  const triggers = new Uint8Array(lineCount + 1);
  const times = new Map<number, string | null>();
  const warnings: SourceWarning[] = [];
  let list: Entry[] = [];
  let positions = new Map<string, number>();
  let subagent = false;

  let start = DATA_OFFSET;
  for (let line = 1; line <= lineCount; line++) {
    const nl = b.indexOf(0x0a, start);
    const lineEnd = nl === -1 || nl > end ? end : nl;
    const members = readMembers(memory, b, state, start, lineEnd);
    const lineStart = start;
    start = lineEnd + 1;
    if (members === null) return null;
    if (isString(members.$rewindTo)) {
      const target = json(members.$rewindTo) as string;
      const at = positions.get(target);
      for (const entry of list.splice(at ?? 0)) positions.delete(entry.id);
    } else if (isString(members.id)) {
      const id = json(members.id) as string;
      const rawType = json(members.type);
      const type = typeof rawType === "string" && rawType !== "" ? rawType : "message";
      if (!isKnownMessageType(type)) warnings.push({ file, where: `line ${line}`, problem: `unknown message type "${type}"; shown as text` });
      if (type === "user" && !subagent && !partsText(json(members.content)).trimStart().startsWith("<session_context>")) {
        triggers[line] = 1;
        const ms = parseAwareTimestamp(json(members.timestamp));
        times.set(line, ms === null ? null : new Date(ms).toISOString());
      }
      const at = positions.get(id);
      if (at === undefined) {
        positions.set(id, list.length);
        list.push({ id, line, onSet: false });
      } else {
        if (!list[at]!.onSet) triggers[list[at]!.line] = 0;
        list[at] = { id, line, onSet: false };
      }
    } else if (members.$set !== undefined && b[members.$set[0]] === 0x7b) {
      const set = json(members.$set) as JsonObject;
      if (Array.isArray(set.messages)) {
        const next: Entry[] = [];
        const nextPositions = new Map<string, number>();
        for (const message of set.messages) {
          if (!isJsonObject(message) || typeof message.id !== "string") continue;
          const current = positions.get(message.id);
          const entry = current !== undefined ? list[current]! : { id: message.id, line, onSet: true };
          const seen = nextPositions.get(message.id);
          if (seen !== undefined) next[seen] = entry;
          else {
            nextPositions.set(message.id, next.length);
            next.push(entry);
          }
        }
        list = next;
        positions = nextPositions;
      }
    } else if (line === 1 || (isString(members.sessionId) && isString(members.projectHash))) {
      const header = JSON.parse(b.toString("utf8", lineStart, lineEnd)) as JsonObject;
      if (header.kind === "subagent") subagent = true;
    } else {
      // An unknown record (rare): parsed to name it as parse.ts does.
      const value = JSON.parse(b.toString("utf8", lineStart, lineEnd)) as JsonObject;
      const type = typeof value.type === "string" && value.type !== "" ? value.type : (Object.keys(value)[0] ?? "unknown");
      warnings.push({ file, where: `line ${line}`, problem: `unknown record "${type}"; shown as text` });
    }
  }

  const starts: number[] = [];
  for (let line = 1; line <= lineCount; line++) if (triggers[line] === 1) starts.push(line);
  const turns = starts.map((s, i) => ({ turn_start_line: s, turn_end_line: (starts[i + 1] ?? lineCount + 1) - 1 }));
  return { turns, promptTimes: starts.map((s) => times.get(s) ?? null), warnings };
}

/**
 * The members of {@link KEYS} of the object that is the whole of `[start, end)` (JSON whitespace
 * around it allowed), every byte checked by the kernel; null when the line is not one valid
 * object or a top-level key holds an escape.
 */
function readMembers(memory: JsonScanMemory, b: Buffer, state: Int32Array, start: number, end: number): Members | null {
  let p = skipSpace(b, start, end);
  if (p >= end || b[p] !== 0x7b) return null;
  const members: Members = {};
  let first = 1;
  for (;;) {
    const at = memory.nextMember(p, end, WANTED, first);
    if (at < 0) return null;
    if (state[0] === 0) {
      p = at;
      break;
    }
    const valueEnd = memory.valueEnd(at, end);
    if (valueEnd < 0) return null;
    const keyStart = state[1]!;
    const keyEnd = state[2]! + 1;
    const k = KEY_BYTES.findIndex((key) => key.length === keyEnd - keyStart && b.compare(key, 0, key.length, keyStart, keyEnd) === 0);
    if (k >= 0) members[KEYS[k]!] = [at, valueEnd];
    p = valueEnd;
    first = 0;
  }
  return skipSpace(b, p, end) === end ? members : null;
}

/** Past JSON whitespace (space, tab, CR; a line holds no LF). */
function skipSpace(b: Buffer, p: number, end: number): number {
  while (p < end && (b[p] === 0x20 || b[p] === 0x09 || b[p] === 0x0d)) p++;
  return p;
}
