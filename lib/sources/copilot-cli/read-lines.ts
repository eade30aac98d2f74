/**
 * A window's records of a Copilot CLI `events.jsonl` without the whole read (issue 38 speed: the
 * viewer's first 200-line window of a 2.4 MB session parsed all of it): the lines the records
 * depend on are found by the SIMD scan kernel (lib/sources/common/json-members) without
 * `JSON.parse` of whole events, and a line is parsed only when its record is asked for.
 */
import type { AgentLines, AgentRecord, SourceWarning } from "@/lib/sources/common/agent-source";
import { linesFromFactsText, linesMadeOnDemand, withFacts } from "@/lib/sources/common/line-facts";
import { MemberLines } from "@/lib/sources/common/json-members";
import type { ReadContext } from "@/lib/sources/copilot-cli/event-readers";
import { readEventAt } from "@/lib/sources/copilot-cli/parse";
import { lazyByteCopyLines } from "@/lib/jsonl/text-lines";

/**
 * What a window of an events file needs to know of its other lines, as JSON (issue 38 speed:
 * stored per file version by lib/sources/agent-transcripts): for each `tool.execution_complete`,
 * the line that last set its call id before it, and each call id's first line.
 */
type CopilotLineFacts = { format: typeof FACTS_FORMAT; lineCount: number; callLines: [number, number][]; firstCallLines: [string, number][] };

/** Bump when a record's making changes: facts stored by an older reader are not used. */
const FACTS_FORMAT = "copilot-line-facts/1";

/** Members read: the event's `type` and `data`, and in `data` (and its `toolRequests` items) the call ids. */
const KEYS = ["type", "data", "toolCallId", "toolRequests"] as const;

/**
 * The lines of Copilot workspace file `data` (`file` names it) as {@link parseCopilotLines} reads
 * them: `record(line)` equals its `records[line - 1]`, `firstCall` and `firstRewindLine` answer as
 * its records would. The full read carries one thing from line to line: what each `toolCallId`
 * called (set by `assistant.message` requests, `tool.execution_start` and `tool.user_requested`),
 * which names a `tool.execution_complete`'s result. One pass of the scan kernel finds, for each
 * completion, the last line before it that set its id; its record is made from its own line and
 * that one. `facts()` gives what {@link copilotLinesFromFacts} needs to answer so again. `window`
 * is unused: every line is read the same way. Null — the caller parses the
 * lines in full — unless `data` is UTF-8 whose only breaks are `\n`, ending with one, and every line
 * is one valid JSON object with no escaped key where the pass reads keys. Never throws.
 */
export function readCopilotLines(data: Buffer, file: string, _window?: { start: number; end: number }): AgentLines | null {
  if (lazyByteCopyLines(data).bytes === undefined) return null;
  const scan = new MemberLines(data, KEYS);
  const { b } = scan;
  // Each line's first byte in `data` (one past the last: the end).
  const starts: number[] = [];
  // The last line that set each call id so far, and for each completion the line that set its id.
  const setBy = new Map<string, number>();
  const callLineOf = new Map<number, number>();
  // The first line holding a call with each id (a request of an assistant message, a user-run tool).
  const firstCallLine = new Map<string, number>();
  const string = (span: [number, number] | undefined): string | null => {
    if (!scan.isString(span)) return null;
    const value = scan.json(span) as string;
    return value === "" ? null : value;
  };
  let line = 0;
  for (let start = 0; start < data.length; ) {
    line++;
    const nl = data.indexOf(0x0a, start);
    const lineEnd = nl === -1 ? data.length : nl;
    starts.push(start);
    const members = scan.members(scan.start + start, scan.start + lineEnd);
    start = lineEnd + 1;
    if (members === null) return null;
    const type = string(members.type);
    if (type === null || !scan.isObject(members.data)) continue;
    const fields = scan.members(members.data![0], members.data![1]);
    if (fields === null) return null;
    if (type === "assistant.message") {
      for (const item of scan.items(fields.toolRequests) ?? []) {
        if (b[item[0]] !== 0x7b) continue;
        const request = scan.members(item[0], item[1]);
        if (request === null) return null;
        const id = string(request.toolCallId);
        if (id === null) continue;
        setBy.set(id, line);
        if (!firstCallLine.has(id)) firstCallLine.set(id, line);
      }
    } else if (type === "tool.execution_start" || type === "tool.user_requested") {
      const id = string(fields.toolCallId);
      if (id === null) continue;
      setBy.set(id, line);
      if (type === "tool.user_requested" && !firstCallLine.has(id)) firstCallLine.set(id, line);
    } else if (type === "tool.execution_complete") {
      const id = string(fields.toolCallId);
      const by = id === null ? undefined : setBy.get(id);
      if (by !== undefined) callLineOf.set(line, by);
    }
  }
  starts.push(data.length);
  const facts: CopilotLineFacts = { format: FACTS_FORMAT, lineCount: line, callLines: [...callLineOf], firstCallLines: [...firstCallLine] };
  const lines = linesOf(facts, (at) => data.toString("utf8", starts[at - 1]!, starts[at]! - 1), file);
  return withFacts(lines, facts);
}

/**
 * The lines {@link readCopilotLines} read from a file of `lineCount` lines, from the JSON text its
 * `facts()` gave for that file's bytes: `lineText(line)` gives a line's text (without its `\n`) when
 * a record needs it. Null when `facts` are not such text for `lineCount` lines. Never throws.
 */
export function copilotLinesFromFacts(facts: string, lineCount: number, lineText: (line: number) => string, file: string): AgentLines | null {
  return linesFromFactsText<CopilotLineFacts>(facts, FACTS_FORMAT, lineCount, (value) => linesOf(value, lineText, file));
}

/** The {@link AgentLines} of an events file whose lines are each one JSON object, its facts found. */
function linesOf(facts: CopilotLineFacts, lineText: (line: number) => string, file: string): AgentLines {
  const { lineCount } = facts;
  const callLineOf = new Map(facts.callLines);
  const firstCallLine = new Map(facts.firstCallLines);
  // Each line is one event (no event split over lines): readEventAt reads it alone.
  const lineAt = (k: number) => lineText(k + 1);
  // Warnings are parseLines' to give: the ones made here are dropped.
  const warnings: SourceWarning[] = [];
  const read = (at: number, ctx: ReadContext): AgentRecord => {
    const out: AgentRecord[] = [];
    readEventAt(lineAt, lineCount, at - 1, ctx, file, warnings, out);
    warnings.length = 0;
    return out[0]!;
  };
  // What the full read knew of a completion's call: what the line that last set its id set.
  const make = (at: number): AgentRecord => {
    const ctx: ReadContext = { calls: new Map() };
    const by = callLineOf.get(at);
    if (by !== undefined) read(by, ctx);
    return read(at, ctx);
  };
  // No Copilot event is read as a rewind.
  return linesMadeOnDemand(lineCount, make, (id) => { const at = firstCallLine.get(id); return at === undefined ? [] : [at]; }, null);
}
