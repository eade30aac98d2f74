/** Seed 000's compact policy for agent sessions: reasoning omitted entirely, the record trimmed, searchable still. */
import { describe, expect, it } from "vitest";

import { recordFacts } from "@/lib/catalog/extract";
import { jsonLine } from "@/lib/sources/common/agent-source";
import { parseCopilotLines } from "@/lib/sources/copilot-cli/parse";
import { parseGeminiLines } from "@/lib/sources/gemini-cli/parse";
import { parseLines as parseOpenCodeLines } from "@/lib/sources/opencode/parse";
import { compactAgentBody } from "@/lib/session-reader/compact-agent";

const THOUGHT = "weighing whether the cache key includes the locale";

describe("compact records of agent lines with reasoning", () => {
  it("Copilot: a reasoning event reads 'Assistant reasoning omitted.', its words not shown but found by search", () => {
    const t = parseCopilotLines([jsonLine({ type: "assistant.reasoning", data: { content: THOUGHT }, timestamp: "2026-07-01T09:00:00.000Z" })], "x.jsonl");
    const body = compactAgentBody(t, 1)!;
    expect(body).toMatchObject({ summary: "Assistant reasoning omitted.", content_kinds: ["thinking"], text_preview: null, truncated: true });
    expect(JSON.stringify(body)).not.toContain(THOUGHT);
    expect(recordFacts(t.records[0]!).text).toContain(THOUGHT);
  });

  it("Copilot: a message with its reasoning shows its words, not the reasoning", () => {
    const t = parseCopilotLines([jsonLine({ type: "assistant.message", data: { content: "The key misses the locale.", reasoningText: THOUGHT } })], "x.jsonl");
    const body = compactAgentBody(t, 1)!;
    expect(body).toMatchObject({ summary: "Assistant: The key misses the locale.", content_kinds: ["text", "thinking"], text_preview: "The key misses the locale.", truncated: true });
    expect(JSON.stringify(body)).not.toContain(THOUGHT);
    expect(recordFacts(t.records[0]!).text).toBe(`The key misses the locale.\n${THOUGHT}`);
  });

  it("Gemini: a message of thoughts alone, and OpenCode: a reasoning part", () => {
    const gemini = parseGeminiLines(
      [jsonLine({ sessionId: "s", projectHash: "h" }), jsonLine({ id: "m1", type: "gemini", content: "", thoughts: [{ subject: "Cache", description: THOUGHT }] })],
      "g.jsonl",
    );
    expect(compactAgentBody(gemini, 2)).toMatchObject({ summary: "Assistant reasoning omitted.", content_kinds: ["thinking"], text_preview: null, truncated: true });
    const opencode = parseOpenCodeLines(
      [jsonLine({ id: "ses_x", directory: "/w" }), jsonLine({ id: "msg_1", sessionID: "ses_x", role: "assistant" }), jsonLine({ id: "prt_1", sessionID: "ses_x", messageID: "msg_1", type: "reasoning", text: THOUGHT })],
      "o.jsonl",
    );
    const body = compactAgentBody(opencode, 3)!;
    expect(body).toMatchObject({ summary: "Assistant reasoning omitted.", content_kinds: ["thinking"], text_preview: null, truncated: true });
    expect(JSON.stringify(body)).not.toContain(THOUGHT);
    expect(recordFacts(opencode.records[2]!).text).toBe(THOUGHT);
  });
});
