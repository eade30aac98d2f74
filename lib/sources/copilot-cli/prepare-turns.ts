/**
 * Prepare's turns-only read of a Copilot CLI `events.jsonl` (issue 38 speed): the same turns,
 * prompt times and warnings as {@link parseCopilotLines}, read from each line's bytes by the SIMD
 * scan kernel (lib/sources/common/json-members) without `JSON.parse` of whole events.
 */
import { isUtf8 } from "node:buffer";

import type { AgentRecord, ExportedLines, PreparedTurns, SourceWarning } from "@/lib/sources/common/agent-source";
import { asObject, type JsonObject } from "@/lib/sources/common/json-object";
import { MemberLines } from "@/lib/sources/common/json-members";
import { EVENT_READERS, isHumanPrompt, PLAIN_EVENT_TYPES, type ReadContext } from "@/lib/sources/copilot-cli/event-readers";
import { isoTime } from "@/lib/sources/copilot-cli/fields";
import { readEventAt } from "@/lib/sources/copilot-cli/parse";

/** Top-level members the read needs: the event's type and time, and what tells a human prompt (`agentId`, a prompt's `data`). */
const KEYS = ["type", "timestamp", "agentId", "data"] as const;

/**
 * The turns (each human `user.message` to the line before the next), each turn's prompt time and
 * the warnings that {@link parseCopilotLines} gives for `exported`'s lines (`file` names them),
 * reading of each line only its `type` (every byte checked by the kernel), and of a
 * `user.message` its `timestamp`, `agentId` and `data`. A line the kernel cannot read as one
 * object (malformed, half-written, an escaped key) is read as parseCopilotLines reads it, with
 * the lines an event split over them takes ({@link readEventAt}).
 * Null — the caller parses the lines in full — unless the export holds its `bytes` (no line holds
 * a break) and they are UTF-8. Never throws.
 */
export function prepareCopilotTurns(exported: ExportedLines, file: string): PreparedTurns | null {
  const data = exported.bytes;
  if (data === undefined || exported.objects !== undefined || !isUtf8(data)) return null;
  const scan = new MemberLines(data, KEYS);
  const { b, end } = scan;
  let lineCount = 0;
  for (let nl = data.indexOf(0x0a); nl !== -1; nl = data.indexOf(0x0a, nl + 1)) lineCount++;

  const starts: number[] = [];
  const promptTimes: (string | null)[] = [];
  const warnings: SourceWarning[] = [];
  const ctx: ReadContext = { calls: new Map() };
  const taken: AgentRecord[] = [];
  let start = scan.start;
  for (let i = 0; i < lineCount; ) {
    const nl = b.indexOf(0x0a, start);
    const lineEnd = nl === -1 || nl > end ? end : nl;
    const members = scan.members(start, lineEnd);
    if (members === null) {
      // Read as the full reader reads it, decoding this line and those an event split over them takes.
      taken.length = 0;
      const count = readEventAt(lineFrom(b, start, i, end), lineCount, i, ctx, file, warnings, taken);
      for (const record of taken) {
        if (!record.trigger) continue;
        starts.push(record.line);
        promptTimes.push(record.time);
      }
      for (let k = 0; k < count; k++) start = b.indexOf(0x0a, start) + 1;
      i += count;
      continue;
    }
    start = lineEnd + 1;
    const line = ++i;
    const type = scan.isString(members.type) ? (scan.json(members.type) as string) : "";
    if (type === "") warnings.push({ file, where: `line ${line}`, problem: "event without a type" });
    else if (type === "user.message") {
      const event: JsonObject = { agentId: scan.json(members.agentId) as JsonObject[string] };
      if (isHumanPrompt(asObject(scan.json(members.data)) ?? {}, event)) {
        starts.push(line);
        promptTimes.push(isoTime(scan.json(members.timestamp)));
      }
    } else if (!EVENT_READERS.has(type) && !PLAIN_EVENT_TYPES.has(type)) warnings.push({ file, where: `line ${line}`, problem: `unknown event type ${type}` });
  }
  const turns = starts.map((s, k) => ({ turn_start_line: s, turn_end_line: (starts[k + 1] ?? lineCount + 1) - 1 }));
  return { turns, promptTimes, warnings };
}

/**
 * `lineAt(k)` for lines `k >= i` of a text whose line `i + 1` starts at byte `start` of `b` (its
 * lines each followed by `\n`, up to `end`): each decoded when first asked for (a split event
 * asks for a few lines after its first).
 */
function lineFrom(b: Buffer, start: number, i: number, end: number): (k: number) => string {
  const decoded: string[] = [];
  let next = start;
  return (k) => {
    while (decoded.length <= k - i) {
      const nl = b.indexOf(0x0a, next);
      const lineEnd = nl === -1 || nl > end ? end : nl;
      decoded.push(b.toString("utf8", next, lineEnd));
      next = lineEnd + 1;
    }
    return decoded[k - i]!;
  };
}
