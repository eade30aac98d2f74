/** The Claude analysis split at any byte gives the one-pass result. */
import { readdirSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { analyzeClaudeTranscript, buildTurns } from "@/lib/sources/claude-code/analyze";
import { classifyClaudeRecord } from "@/lib/sources/claude-code/classify-record";
import { ClaudeTurnUsage } from "@/lib/sources/claude-code/turn-usage";
import { parseJsonObject } from "@/lib/sources/common/json-object";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { splitPhysicalLines } from "@/lib/testing/split-lines";

/** The file's physical lines (contract §1.6: UTF-8 with replacement, a leading BOM kept). */
async function physicalLines(file: string): Promise<string[]> {
  return splitPhysicalLines(new TextDecoder("utf-8", { ignoreBOM: true }).decode(await fs.readFile(file)));
}

/**
 * The analysis as it was before issue 13 (one JSON.parse per decoded line), reduced to what the
 * index and the usage cache depend on. The byte-split analysis must agree with it on every file.
 */
async function reference(file: string) {
  const texts = await physicalLines(file);
  let lineCount = 0;
  let malformed = 0;
  let isSidechain = false;
  let projectRoot: string | null = null;
  let sessionIdField: string | null = null;
  const recordTypes: Record<string, number> = {};
  const triggers: { line: number; timestampMs: number; outputTokens: number | null }[] = [];
  const usage = new ClaudeTurnUsage();
  for (const [i, text] of texts.entries()) {
    const line = i + 1;
    lineCount = line;
    const record = parseJsonObject(text);
    if (record === null) {
      malformed++;
      recordTypes.malformed = (recordTypes.malformed ?? 0) + 1;
      usage.observe(null);
      continue;
    }
    const cls = classifyClaudeRecord(record);
    recordTypes[cls.type ?? "(none)"] = (recordTypes[cls.type ?? "(none)"] ?? 0) + 1;
    if (cls.isSidechain) isSidechain = true;
    if (projectRoot === null && typeof record.cwd === "string" && record.cwd.trim() !== "") projectRoot = record.cwd;
    if (sessionIdField === null && typeof record.sessionId === "string" && record.sessionId.trim() !== "") sessionIdField = record.sessionId;
    if (cls.isTrigger && cls.timestampMs !== null) {
      const open = triggers.at(-1);
      if (open) open.outputTokens = usage.total();
      usage.reset();
      triggers.push({ line, timestampMs: cls.timestampMs, outputTokens: null });
    }
    usage.observe(record);
  }
  const open = triggers.at(-1);
  if (open) open.outputTokens = usage.total();
  return { lineCount, malformedLineCount: malformed, isSidechain, projectRoot, sessionIdField, recordTypes, triggers, turns: buildTurns(triggers, lineCount, null) };
}

/** Per-turn output tokens as `getTurnUsage` computes them: only lines holding `"assistant"`, whole line trimmed. */
async function listedReference(file: string, turns: { turn_start_line: number; turn_end_line: number }[]): Promise<(number | null)[]> {
  const lines = await physicalLines(file);
  return turns.map((turn) => {
    const usage = new ClaudeTurnUsage();
    for (let l = turn.turn_start_line; l <= turn.turn_end_line; l++) {
      const line = lines[l - 1]!;
      if (line.includes('"assistant"')) usage.observe(parseJsonObject(line.trimEnd()));
    }
    return usage.total();
  });
}

async function expectSame(file: string): Promise<void> {
  const fast = await analyzeClaudeTranscript(file, null);
  const slow = await reference(file);
  expect({
    lineCount: fast.lineCount,
    malformedLineCount: fast.malformedLineCount,
    isSidechain: fast.isSidechain,
    projectRoot: fast.projectRoot,
    sessionIdField: fast.sessionIdField,
    recordTypes: fast.recordTypes,
    triggers: fast.triggers,
    turns: fast.turns,
  }).toEqual(slow);
  expect(fast.listedOutputTokens).toEqual(await listedReference(file, fast.turns));
}

describe("byte-split Claude analysis", () => {
  it("agrees with a full parse on malformed, exotic and oddly terminated lines", async () => {
    const dir = await makeTempDir();
    const file = path.join(dir, "odd.jsonl");
    const human = (ms: number, content: unknown) => JSON.stringify({ type: "user", timestamp: new Date(Date.UTC(2026, 4, 12, 0, 0, 0, ms)).toISOString(), cwd: "/p", message: { role: "user", content } });
    const assistant = (id: string, tokens: unknown) => JSON.stringify({ type: "assistant", timestamp: "2026-05-12T00:00:01Z", message: { id, role: "assistant", usage: { output_tokens: tokens }, content: [{ type: "text", text: "x\u2028y" }] } });
    const lines = [
      "\uFEFF" + human(0, "first"),
      assistant("a", 5),
      '{"type":"assistant","message":{"id":"b","usage":{"output_tokens":3}}}   ',
      '{"type":"user","broken":',
      human(10, [{ type: "tool_result", content: "x" }]),
      human(20, "second \u0085 with a NEL inside"),
      assistant("c", 7) + "\r",
      '{"type":"assistant","message":{"id":"d","usage":{"output_tokens":"many"}}}',
      human(30, [{ type: "text", text: "third" }, { type: "tool_result", content: "y" }]),
      assistant("e", 2) + "\u00a0",
      '{"t\\u0079pe":"user","timestamp":"2026-05-12T00:00:40Z","message":{"role":"user","content":"escaped key"}}',
      "[1,2]",
      "",
    ];
    await fs.writeFile(file, lines.join("\r\n") + "\n");
    await expectSame(file);
  });

  const files = HAS_SHARED
    ? readdirSync(path.join(SHARED_DIR, "corpus", "claude-code"), { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".jsonl"))
        .sort()
    : [];
  describe.skipIf(!HAS_SHARED)(`every corpus transcript ${HAS_SHARED ? "" : SKIP_SHARED_MESSAGE}`, () => {
    it.each(files)("%s", async (file) => {
      await expectSame(path.join(SHARED_DIR, "corpus", "claude-code", file));
    });
  });
});
