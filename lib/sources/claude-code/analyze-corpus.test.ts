/** Claude Code analysis of the corpus: triggers, turns and windows checked by hand. */
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { analyzeClaudeTranscript } from "@/lib/sources/claude-code/analyze";
import { listFilesRecursive } from "@/lib/sources/common/walk-files";
import { dayWindow } from "@/lib/sources/common/window";

const SHARED = path.resolve(process.cwd(), "../shared");
const HAS_SHARED = existsSync(path.join(SHARED, "corpus", "claude-code"));
const CORPUS = path.join(SHARED, "corpus", "claude-code");
const SPOTTER = path.join(CORPUS, "misc", "marot__spotter", "test", "fixtures", "transcripts");
const FIXTURE = path.join(
  SHARED,
  "fixtures/prompt-diary/prepare-multi-turns/claude/-fake-ReportGenerator/ef15cda7-0000-4000-8000-000000000001.jsonl",
);

const spans = (turns: { turn_start_line: number; turn_end_line: number }[]) =>
  turns.map((t) => `${t.turn_start_line}-${t.turn_end_line}`);

describe.skipIf(!HAS_SHARED)(`Claude transcripts in ${SHARED} (skipped when that folder is absent)`, () => {
  it("prompt-diary prepare-multi-turns fixture, 2026-05-12 Asia/Shanghai → T0001 2-5, T0002 6-8, T0003 9-10", async () => {
    const result = await analyzeClaudeTranscript(FIXTURE, dayWindow("2026-05-12", "Asia/Shanghai"));
    expect(result.turns).toEqual([
      { turn_ref: "T0001", turn_start_line: 2, turn_end_line: 5 },
      { turn_ref: "T0002", turn_start_line: 6, turn_end_line: 8 },
      { turn_ref: "T0003", turn_start_line: 9, turn_end_line: 10 },
    ]);
    // Lines 4 and 8 are tool results (sourceToolAssistantUUID); every assistant reports 0 output tokens.
    expect(result.triggers.map((t) => [t.line, t.outputTokens])).toEqual([[2, 0], [6, 0], [9, 0]]);
    expect(result).toMatchObject({
      lineCount: 10,
      projectRoot: "/fake/projects/ReportGenerator",
      firstUserMessage: "First redacted human request.",
      malformedLineCount: 0,
      isSidechain: false,
    });
  });

  // HAND-VERIFIED spans (all time). Each file's records were listed with a python3 script that
  // prints line number, type, timestamp, message.role, the isMeta/isSidechain/isCompactSummary/
  // sourceToolAssistantUUID flags and the content shape; human triggers were picked by eye per
  // contract §1.7 and cross-checked with an independent Python reimplementation of prompt-diary's
  // rules (json.loads + datetime.fromisoformat + str.splitlines).
  it.each([
    // Era 1 (2.0.60, flat agent-*.jsonl): 1 summary + 1 snapshot, then /wsd:init (3). 4/9/23/40/89/95
    // are isMeta, every tool result is a tool_result-only list; 8, 22, 39 are slash commands, 85 a
    // typed prompt, 90/91 and 96/97 the /export and /exit command + stdout records.
    ["phantom-reads/session-examples/2.0.60-good/2caf2337-66bf-41d1-ad27-9d2cab7bd2dc.jsonl", 97,
      ["3-7", "8-21", "22-38", "39-84", "85-89", "90-90", "91-95", "96-96", "97-97"]],
    // Era 2 (2.1.6, <id>/subagents/): tool results carry sourceToolAssistantUUID; triggers 2, 32, 79, 85, 86.
    ["phantom-reads/session-examples/2.1.6-good/0357781f-d024-4cef-8496-56501c76afb3.jsonl", 86,
      ["2-31", "32-78", "79-84", "85-85", "86-86"]],
    // Era 2 (2.1.6, subagents + tool-results): 5 summaries + snapshot first, a summary inside T0001 (line 9).
    ["phantom-reads/session-examples/2.1.6-bad/bf88e2ff-ac8b-4f29-8dbf-c2467325fe4e.jsonl", 105,
      ["7-40", "41-92", "93-99", "100-100", "101-103", "104-104", "105-105"]],
    // 2.1.39, 1,863 lines: 495 "[Request interrupted by user for tool use]" (text list), 496 and 1847
    // <task-notification> strings; 1257 isCompactSummary after the auto compact_boundary is excluded.
    ["misc/marot__spotter/test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d.jsonl", 1863,
      ["5-494", "495-495", "496-1846", "1847-1857", "1858-1863"]],
    // 2.1.38: prompt at 4, tool results 11/12 (sourceToolAssistantUUID), interruption text at 13.
    ["misc/marot__spotter/test/fixtures/transcripts/short.jsonl", 15, ["4-12", "13-15"]],
    // 2.1.38: 4 prompt, 18 interruption, 20 isMeta caveat, 21/22 /mcp + stdout, 26 prompt, 39 interruption.
    ["misc/marot__spotter/test/fixtures/transcripts/tool_heavy.jsonl", 39,
      ["4-17", "18-20", "21-21", "22-25", "26-38", "39-39"]],
    // 2.1.4 re-serialized with spaced JSON; 16 untimestamped summaries inside T0001.
    ["misc/codemie-ai__codemie-code/tests/integration/session/fixtures/session-9eda1058.jsonl", 40,
      ["2-21", "22-23", "24-32", "33-40"]],
    // 2.0.76: tool results are tool_result-only lists; 60 isCompactSummary, 61 isMeta after compact_boundary.
    ["misc/oneryalcin__fasthooks/specs/data/sample_main_transcript.jsonl", 63,
      ["2-9", "10-18", "19-26", "27-34", "35-61", "62-62", "63-63"]],
  ])("%s", async (relative, lineCount, expected) => {
    const result = await analyzeClaudeTranscript(path.join(CORPUS, relative), null);
    expect(result.lineCount).toBe(lineCount);
    expect(spans(result.turns)).toEqual(expected);
    expect(result.turns.map((t) => t.turn_ref)).toEqual(expected.map((_, i) => `T${String(i + 1).padStart(4, "0")}`));
    expect(result.malformedLineCount).toBe(0);
    expect(result.untimestampedTriggerCount).toBe(0);
    expect(result.isSidechain).toBe(false);
  });

  it("2.1.39 session facts and a window split at Moscow midnight (2026-02-11T21:00Z)", async () => {
    const file = path.join(SPOTTER, "258c7280-ae70-4798-800f-63464d01a85d.jsonl");
    const feb11 = await analyzeClaudeTranscript(file, dayWindow("2026-02-11", "Europe/Moscow"));
    // 1847 (21:36Z) is out of this window but still ends the turn started at 496.
    expect(spans(feb11.turns)).toEqual(["5-494", "495-495", "496-1846"]);
    const feb12 = await analyzeClaudeTranscript(file, dayWindow("2026-02-12", "Europe/Moscow"));
    expect(feb12.turns).toEqual([
      { turn_ref: "T0001", turn_start_line: 1847, turn_end_line: 1857 },
      { turn_ref: "T0002", turn_start_line: 1858, turn_end_line: 1863 },
    ]);
    expect(feb12).toMatchObject({
      projectRoot: "/home/USER/projects/spotter-worktrees/spotter-gqc",
      sessionIdField: "258c7280-ae70-4798-800f-63464d01a85d",
      firstUserMessage: "Implement spotter-gqc",
      firstEventAt: "2026-02-11T20:31:53Z",
      lastEventAt: "2026-02-11T21:46:25Z",
      untimestampedRecordCount: 28,
      nonMonotonicTimestampCount: 191,
      recordTypes: { "file-history-snapshot": 28, progress: 1333, user: 192, assistant: 299, "queue-operation": 6, system: 5 },
    });
  });

  it("every corpus transcript parses; sidechain files have no triggers and main files are not sidechains", async () => {
    const files = (await listFilesRecursive(CORPUS)).filter((f) => f.endsWith(".jsonl"));
    expect(files).toHaveLength(39);
    for (const file of files) {
      const result = await analyzeClaudeTranscript(file, null);
      const isAgentFile = path.basename(file).includes("agent"); // agent-*.jsonl, sample-agent, sample_agent_sidechain
      expect(result.isSidechain, file).toBe(isAgentFile);
      if (isAgentFile) expect(result.triggers, file).toEqual([]);
      else expect(result.triggers.length, file).toBeGreaterThan(0);
      expect(result.malformedLineCount, file).toBe(0);
    }
  });
});
