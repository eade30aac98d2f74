/** Tests of claudeLineFact. */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { claudeLineFact, claudeLineFactByParse, newStreamFacts, type ClaudeLineFact, type ClaudeStreamFacts } from "@/lib/sources/claude-code/line-facts";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

/** A fact as the fold sees it: a listed "skip" and a listed null (line not observed) fold the same way. */
function folded(fact: ClaudeLineFact): ClaudeLineFact {
  const copy = structuredClone(fact);
  return copy.listed === "skip" ? { ...copy, listed: null } : copy;
}

/** The facts of every line of `bytes` (split on `\n`, `\r` kept in the line as the readers do) by both paths. */
function bothPaths(bytes: Buffer): { fast: unknown[]; reference: unknown[]; streams: [ClaudeStreamFacts, ClaudeStreamFacts] } {
  const fastStream = newStreamFacts();
  const referenceStream = newStreamFacts();
  const fast: unknown[] = [];
  const reference: unknown[] = [];
  let start = 0;
  while (start < bytes.length) {
    const nl = bytes.indexOf(0x0a, start);
    const next = nl === -1 ? bytes.length : nl + 1;
    const end = nl === -1 ? bytes.length : nl > start && bytes[nl - 1] === 0x0d ? nl - 1 : nl;
    fast.push(folded(claudeLineFact(bytes, start, end, next, fastStream)));
    reference.push(folded(claudeLineFactByParse(bytes, start, end, next, referenceStream)));
    start = next;
  }
  return { fast, reference, streams: [fastStream, referenceStream] };
}

describe("claudeLineFact", () => {
  it("gives the JSON.parse path's fact on lines the skim settles and lines it leaves", () => {
    const lines = [
      JSON.stringify({ type: "user", cwd: "  ", sessionId: "s1", timestamp: "2026-01-01T00:00:00Z", message: { role: "user", content: [{ type: "tool_result", content: "x".repeat(900) }] } }),
      JSON.stringify({ type: "user", cwd: "/w", timestamp: "2026-01-01T00:00:01Z", message: { role: "user", content: "   " } }),
      JSON.stringify({ type: "user", timestamp: "2026-01-01T00:00:02Z", message: { role: "user", content: [{ type: "text", text: `${"é".repeat(600)} first` }] } }),
      JSON.stringify({ type: "user", timestamp: "2026-01-01T00:00:03Z", message: { role: "user", content: "second" } }),
      JSON.stringify({ type: "assistant", uuid: "u1", message: { id: "", usage: { output_tokens: 7 }, content: [{ type: "text", text: "y".repeat(700) }] } }),
      JSON.stringify({ type: "assistant", uuid: "u2", message: { id: "m2", usage: { output_tokens: 7.5 } } }),
      JSON.stringify({ type: "assistant", message: "not an object" }),
      `{"type":"\\u0061ssistant","uuid":"u3","message":{"id":"m3","usage":{"output_tokens":3}}}`,
      `{"type":"assistant","uuid":"u4","message":{"id":"m4","usage":{"output_tokens":4}}}   `,
      `{"type":"assistant","uuid":"u5","message":{"id":"m5","usage":{"output_tokens":5}}}\r`,
      `{"type":"progress","data":{"output":"a\u0001b"},"text":"assistant"}`,
      `{"type":"user","isSidechain":true,"isMeta":false,"sourceToolAssistantUUID":"${" ".repeat(600)}","message":{"role":"user","content":"x"},"timestamp":"2026-01-01T00:00:04+02:00"}`,
      `{"type":"user","message":{"role":"user","content":"bad \\q escape"},"timestamp":"2026-01-01T00:00:05Z"}`,
      "",
      "   ",
      `["assistant"]`,
    ];
    const { fast, reference, streams } = bothPaths(Buffer.from(`${lines.join("\n")}\n`, "utf8"));
    expect(fast).toEqual(reference);
    expect(streams[0]).toEqual(streams[1]);
    expect(streams[0]).toEqual({ cwd: "/w", sessionId: "s1", firstMessageFound: true });
  });
});

describe.skipIf(!HAS_SHARED)(`claudeLineFact on every Claude Code corpus file${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("gives the JSON.parse path's facts and stream facts", () => {
    const corpus = path.join(SHARED_DIR, "corpus", "claude-code");
    const files = readdirSync(corpus, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"));
    expect(files.length).toBeGreaterThan(10);
    let lines = 0;
    for (const file of files) {
      const { fast, reference, streams } = bothPaths(readFileSync(path.join(corpus, file)));
      expect(fast, file).toEqual(reference);
      expect(streams[0], file).toEqual(streams[1]);
      lines += fast.length;
    }
    expect(lines).toBeGreaterThan(1000);
  });
});
