import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { damagedBytes, seededRandom } from "@/lib/testing/random";
import { byteCopyLines } from "@/lib/jsonl/text-lines";
import { preparedTurns, type ExportedLines } from "@/lib/sources/common/agent-source";
import { legacyLines } from "@/lib/sources/gemini-cli/export-lines";
import { parseGeminiLines } from "@/lib/sources/gemini-cli/parse";
import { prepareGeminiTurns } from "@/lib/sources/gemini-cli/prepare-turns";
import { geminiSource } from "@/lib/sources/gemini-cli/source";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

if (!HAS_SHARED) console.warn(SKIP_SHARED_MESSAGE);

const FIXTURES = path.join(__dirname, "__fixtures__");

/** The turns-only path's answer, checked equal to the full read's when it gives one; whether it gave one. */
function compare(exported: ExportedLines, file: string): boolean {
  const fast = prepareGeminiTurns(exported, file);
  const full = preparedTurns(parseGeminiLines(exported.lines, file, exported.objects));
  if (fast === null) return false;
  expect(fast).toEqual(full);
  return true;
}

/** The export of a chat's bytes, as exportGeminiLines makes it. */
function exportOf(bytes: Buffer, legacy: boolean): ExportedLines {
  return legacy ? legacyLines(bytes, "x.json") : { ...byteCopyLines(bytes), warnings: [] };
}

describe.skipIf(!HAS_SHARED)("prepareGeminiTurns on the corpus", () => {
  it("gives the full read's turns, prompt times and warnings for every corpus chat", async () => {
    const { sessions } = await geminiSource.discover(path.join(SHARED_DIR, "corpus", "agents-home", ".gemini"));
    expect(sessions.length).toBeGreaterThan(0);
    let fast = 0;
    for (const found of sessions) {
      const exported = await geminiSource.exportLines(found);
      // The lines decoded on demand are the byte copy's.
      if (found.sourcePath.endsWith(".jsonl")) expect(exported.lines).toEqual(byteCopyLines(readFileSync(found.sourcePath)).lines);
      if (compare(exported, found.fileName)) fast++;
    }
    // Every well-formed corpus chat takes the fast path.
    expect(fast).toBeGreaterThan(sessions.length / 2);
  });
});

describe("prepareGeminiTurns on the reader fixtures", () => {
  it.each(["legacy.json", "malformed.json", "replay.jsonl", "subagent.jsonl"])("%s: equal to the full read (or declined)", (name) => {
    const bytes = readFileSync(path.join(FIXTURES, name));
    compare(exportOf(bytes, name.endsWith(".json")), name);
  });

  it("takes the fast path on the replay fixture without its half-written last line (rewinds, replacements, $set, an unknown record)", () => {
    const bytes = readFileSync(path.join(FIXTURES, "replay.jsonl"));
    const whole = bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1);
    const exported = exportOf(whole, false);
    expect(compare(exported, "replay.jsonl")).toBe(true);
    expect(prepareGeminiTurns(exported, "replay.jsonl")!.warnings.map((w) => w.problem)).toEqual(['unknown record "checkpoint"; shown as text']);
  });
});

/** One line of a generated chat: a message, a replacement, a rewind, a `$set`, a header or an odd record. */
function chatLine(r: () => number, ids: string[], line: number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const id = ids.length > 0 && r() < 0.25 ? pick(ids) : `m${line}`;
  if (!ids.includes(id)) ids.push(id);
  const time = pick(["2026-04-10T09:00:00.000Z", "2026-04-10T09:00:00", "2026-04-11T10:00:00+02:00", "nope", 17, null]);
  const content = pick<unknown>([
    "fix the bug",
    "  <session_context>cwd</session_context>",
    [{ text: "<session_context>x" }],
    [{ text: "" }, "look at \u2028 this"],
    { text: "hello" },
    { functionResponse: { response: { output: "<session_context>" } } },
    undefined,
    42,
  ]);
  const kind = r();
  let value: Record<string, unknown>;
  if (kind < 0.55) value = { id, timestamp: time, type: pick(["user", "user", "gemini", "info", "error", "warning", "toString", "", 3, "odd"]), content };
  else if (kind < 0.65) value = { $rewindTo: r() < 0.8 ? pick(ids) : "missing" };
  else if (kind < 0.75) value = { $set: r() < 0.5 ? { summary: "t", lastUpdated: time } : { messages: ids.filter(() => r() < 0.6).map((i) => (r() < 0.9 ? { id: i } : "x")).concat(r() < 0.3 ? [{ id: `n${line}` }] : []) } };
  else if (kind < 0.8) value = { sessionId: "s", projectHash: "h", kind: r() < 0.5 ? "subagent" : "main" };
  else if (kind < 0.83) value = { type: "strange", 1: "x" };
  else if (kind < 0.86) value = { id: 7, sessionId: "s", projectHash: 5 };
  else value = { id, type: "gemini", toolCalls: [{ name: "read_file", args: { path: "a" } }], tokens: { input: 3 }, content: "done" };
  if (r() < 0.1) value.id = value.id ?? id;
  let text = JSON.stringify(value);
  // Duplicate keys (the last wins), spaces, an escaped key, an escaped id.
  if (r() < 0.05) text = text.replace("{", `{"type":"user","id":"m${line}",`);
  if (r() < 0.05) text = ` ${text.replace(/,/g, " ,\t")}\r`;
  if (r() < 0.03) text = text.replace('"id"', '"\\u0069d"');
  if (r() < 0.03) text = text.replace(/"id":"([^"]*)"/, (_m, v: string) => `"id":"\\u00${v.charCodeAt(0).toString(16)}${v.slice(1)}"`);
  return text;
}

describe("prepareGeminiTurns on generated and damaged chats (seeded)", () => {
  it("equals the full read wherever it answers, and answers for most undamaged chats", () => {
    let fast = 0;
    let undamagedFast = 0;
    for (let seed = 1; seed <= 600; seed++) {
      const r = seededRandom(seed);
      const ids: string[] = [];
      const count = 1 + Math.floor(r() * 25);
      const lines = [JSON.stringify({ sessionId: "s", projectHash: "h", startTime: "2026-04-10T08:00:00Z", kind: r() < 0.1 ? "subagent" : undefined })];
      for (let line = 2; line <= count; line++) lines.push(chatLine(r, ids, line));
      const text = `${lines.join("\n")}\n`;
      if (compare(exportOf(Buffer.from(text), false), `fuzz-${seed}.jsonl`)) undamagedFast++;
      if (compare(exportOf(damagedBytes(r, text), false), `fuzz-${seed}.jsonl`)) fast++;
      // The same messages as a legacy chat (pretty-printed, some damaged).
      const legacy = JSON.stringify({ sessionId: "s", projectHash: "h", messages: lines.slice(1).map((l) => { try { return JSON.parse(l) as unknown; } catch { return l; } }) }, null, 2);
      if (compare(exportOf(r() < 0.5 ? Buffer.from(legacy) : damagedBytes(r, legacy), true), `fuzz-${seed}.json`)) fast++;
    }
    expect(undamagedFast).toBeGreaterThan(100);
    expect(fast).toBeGreaterThan(100);
  });
});
