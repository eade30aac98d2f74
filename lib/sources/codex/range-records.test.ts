/** Tests of Codex range records packed and read back. */
import { statSync, writeFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { streamLineBytes } from "@/lib/jsonl/stream-line-bytes";
import { codexLineRecord, codexRangeRecords, rangeRecordsReader, type CodexLineRecord } from "@/lib/sources/codex/range-records";
import { makeTempDir } from "@/lib/testing/shared";

/** Each line's `codexLineRecord`, read in one stream (without `facts`: a cache of shared records the packed form does not carry). */
async function lineRecords(file: string): Promise<CodexLineRecord[]> {
  const out: CodexLineRecord[] = [];
  for await (const { bytes, start, end } of streamLineBytes(file)) out.push({ ...codexLineRecord(bytes, start, end), facts: undefined });
  return out;
}

describe("a range's records as a worker sends them", () => {
  it("read back equal to each line's record, key order included, whatever the shape", async () => {
    const dir = await makeTempDir("codex-range-");
    const file = path.join(dir, "r.jsonl");
    const ts = "2026-05-11T08:00:00.000Z";
    const lines = [
      { timestamp: ts, type: "turn_context", payload: { cwd: "/w", model: "m" } },
      { timestamp: "2026-05-11T08:00:01Z", type: "turn_context", payload: { cwd: "/w" } },
      { type: "response_item", timestamp: ts, payload: { role: "assistant", type: "message", content: [] } },
      { timestamp: ts, payload: { type: "reasoning" }, type: "response_item" },
      // Values that could collide in a naive key: separators and digits inside strings.
      { timestamp: ts, type: "a1:b;", payload: { type: "c" } },
      { timestamp: ts, type: "a", payload: { type: "1:b;c" } },
      // Same keys, other values.
      { timestamp: ts, type: "turn_context", payload: { cwd: "/x", model: "m" } },
      { timestamp: ts, payload: { type: "function_call" }, type: "response_item" },
      { timestamp: ts, type: "a", payload: { type: "1:b;d" } },
      { timestamp: ts, type: "event_msg", payload: { type: "agent_message", message: "kept whole" } },
      { timestamp: ts, type: "event_msg", payload: {} },
      { timestamp: ts, type: "event_msg" },
      { timestamp: 5, type: "event_msg", payload: { type: "x" } },
      { type: "event_msg", payload: { type: "x" } },
      { timestamp: ts, type: 7, payload: { type: "x" } },
      { timestamp: ts, type: "response_item", payload: "not an object" },
      { timestamp: ts, type: "response_item", payload: { type: "x", role: null } },
      { timestamp: ts, type: "event_msg", payload: { type: "token_count", info: { total_token_usage: { output_tokens: 1 } } } },
      { timestamp: "", type: "", payload: { type: "", role: "", cwd: "" } },
      { timestamp: "2026-05-11T10:00:00+02:00", type: "event_msg", payload: { type: "agent_message" } },
      { timestamp: "not a time", type: "event_msg", payload: { type: "agent_message" } },
      { timestamp: ts, type: "session_meta", payload: { id: "x" } },
    ].map((o) => JSON.stringify(o));
    lines.push("", "not json", '{"timestamp":"2026-05-11T08:00:00Z","type":"turn_context","payload":{"cwd":"/w"}}');
    writeFileSync(file, `${lines.join("\n")}\n`);
    const expected = await lineRecords(file);
    const part = await codexRangeRecords(file, { firstLine: 0, lastLine: 0, startByte: 0, endByte: statSync(file).size });
    const next = rangeRecordsReader(part);
    const got = Array.from(part.kinds, () => ({ ...next() }));
    expect(got).toEqual(expected);
    expect(got.map((r) => JSON.stringify(r.record))).toEqual(expected.map((r) => JSON.stringify(r.record)));
    // Skimmed lines carry their parsed timestamp; parsed ones (session_meta, not JSON) their own field.
    expect(expected[0]!.timestampMs).toBe(Date.parse(ts));
    expect(expected.filter((r) => r.timestampMs === undefined && r.record !== null).map((r) => r.record!.type)).toEqual(["session_meta"]);
    expect(expected[19]!.timestampMs).toBe(Date.parse("2026-05-11T08:00:00Z"));
    expect(expected[20]!.timestampMs).toBeNull();
    // Most of them travel as a shape and a timestamp, not as objects.
    expect(part.objects.length).toBeLessThan(expected.length / 2);
    expect(part.shapes.length).toBeLessThan(part.shapeIndex.length);
  });
});
