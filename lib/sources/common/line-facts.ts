/**
 * The envelope of a reader's line facts (`AgentLines.facts`, issue 38): JSON text naming its format
 * and the file's line count, checked before a reader reads lines from it.
 */
import type { AgentLines, AgentRecord, AgentToolCall } from "@/lib/sources/common/agent-source";
import { isJsonObject } from "@/lib/sources/common/json-object";

/** What every reader's facts hold: their format (with its version) and the file's physical line count. */
export type LineFactsEnvelope = { format: string; lineCount: number };

/** `lines` with `facts()` giving `facts` as JSON text, serialized when first asked for (call it before asking for records). */
export function withFacts(lines: AgentLines, facts: LineFactsEnvelope): AgentLines {
  let text: string | undefined;
  return { ...lines, facts: () => (text ??= JSON.stringify(facts)) };
}

/**
 * The lines `read` makes of facts `text` when it is JSON of `format` for a file of `lineCount`
 * lines; null when it is not (another reader or version, another file version, not JSON) or `read`
 * throws on facts of another shape. Never throws.
 */
export function linesFromFactsText<F extends LineFactsEnvelope>(text: string, format: string, lineCount: number, read: (facts: F) => AgentLines): AgentLines | null {
  try {
    const value = JSON.parse(text) as F;
    if (!isJsonObject(value) || value.format !== format || value.lineCount !== lineCount) return null;
    return read(value);
  } catch {
    // Not JSON, or not of the facts' shape.
    return null;
  }
}

/**
 * The {@link AgentLines} of a file of `lineCount` lines whose records are made when first asked for
 * (`make(line)`, once per line) and kept: `firstCall(id)` is the first call with `id` on the lines
 * `callLines(id)` names (in line order), `firstRewindLine()` is `firstRewind`.
 */
export function linesMadeOnDemand(lineCount: number, make: (line: number) => AgentRecord, callLines: (id: string) => readonly number[], firstRewind: number | null): AgentLines {
  const built = new Map<number, AgentRecord>();
  const record = (at: number): AgentRecord | undefined => {
    if (!(at >= 1 && at <= lineCount) || !Number.isInteger(at)) return undefined;
    let made = built.get(at);
    if (made === undefined) {
      made = make(at);
      built.set(at, made);
    }
    return made;
  };
  const firstCalls = new Map<string, AgentToolCall | undefined>();
  return {
    lineCount,
    record,
    firstCall(id) {
      if (firstCalls.has(id)) return firstCalls.get(id);
      let found: AgentToolCall | undefined;
      for (const at of callLines(id)) {
        found = record(at)!.calls.find((c) => c.id === id);
        if (found !== undefined) break;
      }
      firstCalls.set(id, found);
      return found;
    },
    firstRewindLine: () => firstRewind,
  };
}
