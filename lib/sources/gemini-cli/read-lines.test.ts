import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { agentEnding, agentRequest } from "@/lib/forensics/agent-session";
import { byteCopyLines } from "@/lib/jsonl/text-lines";
import { compactAgentBody } from "@/lib/session-reader/compact-agent";
import { transcriptLines, type AgentLines } from "@/lib/sources/common/agent-source";
import { parseGeminiLines } from "@/lib/sources/gemini-cli/parse";
import { geminiLinesFromFacts, readGeminiLines } from "@/lib/sources/gemini-cli/read-lines";
import { geminiSource } from "@/lib/sources/gemini-cli/source";
import { damagedBytes, seededRandom } from "@/lib/testing/random";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

if (!HAS_SHARED) console.warn(SKIP_SHARED_MESSAGE);

const FIXTURES = path.join(__dirname, "__fixtures__");

/**
 * The window reader's answers (its lines in `window` parsed, the others scanned) checked equal to
 * the full read's when it gives them (records asked for in the order `order` gives, the compact
 * bodies built from both); whether it gave them.
 */
function compare(bytes: Buffer, file: string, order: (count: number) => number[] = (n) => [...Array(n).keys()].map((i) => i + 1), window?: { start: number; end: number }): boolean {
  const fast = readGeminiLines(bytes, file, window);
  if (fast === null) return false;
  const full = parseGeminiLines(byteCopyLines(bytes).lines, file);
  const lines: AgentLines = transcriptLines(full);
  expect(fast.lineCount).toBe(full.records.length);
  for (const line of order(fast.lineCount)) expect(fast.record(line)).toEqual(full.records[line - 1]);
  expect(fast.record(0)).toBeUndefined();
  expect(fast.record(fast.lineCount + 1)).toBeUndefined();
  const ids = new Set(["(none)"]);
  for (const r of full.records) for (const c of [...r.calls, ...r.results]) if (c.id !== null) ids.add(c.id);
  for (const id of ids) expect(fast.firstCall(id)).toEqual(lines.firstCall(id));
  expect(fast.firstRewindLine()).toBe(lines.firstRewindLine());
  // A fresh reader, its records made as compact bodies ask for them (a prompt's followers, a result's call).
  const fresh = readGeminiLines(bytes, file, window)!;
  for (const line of order(fast.lineCount)) expect(compactAgentBody(fresh, line)).toEqual(compactAgentBody(full, line));
  // The pages that read a few records (the request from the first, the ending from the last) answer as from the whole read.
  const NOW = Date.parse("2026-12-01T00:00:00Z");
  expect(agentRequest(readGeminiLines(bytes, file, window)!)).toEqual(agentRequest(full));
  expect(agentEnding(readGeminiLines(bytes, file, window)!, NOW)).toEqual(agentEnding(full, NOW));
  // Read again from the facts the first read gave (as stored: JSON text), each line read only when its record is asked for.
  const texts = byteCopyLines(bytes).lines;
  const read: number[] = [];
  const stored = geminiLinesFromFacts(readGeminiLines(bytes, file, window)!.facts!(), fast.lineCount, (line) => (read.push(line), texts[line - 1]!), file)!;
  for (const line of order(fast.lineCount)) expect(stored.record(line)).toEqual(full.records[line - 1]);
  expect(new Set(read).size).toBe(read.length);
  for (const id of ids) expect(stored.firstCall(id)).toEqual(lines.firstCall(id));
  expect(stored.firstRewindLine()).toBe(lines.firstRewindLine());
  const again = geminiLinesFromFacts(fast.facts!(), fast.lineCount, (line) => texts[line - 1]!, file)!;
  for (const line of order(fast.lineCount)) expect(compactAgentBody(again, line)).toEqual(compactAgentBody(full, line));
  expect(geminiLinesFromFacts(fast.facts!(), fast.lineCount + 1, (line) => texts[line - 1]!, file)).toBeNull();
  return true;
}

describe("readGeminiLines on the reader fixtures and the corpus", () => {
  it.each(["replay.jsonl", "subagent.jsonl"])("%s: equal to the full read (or declined)", (name) => {
    compare(readFileSync(path.join(FIXTURES, name)), name);
  });

  it("reads the replay fixture without its half-written last line (rewinds, replacements, $set, an unknown record); declines it with that line", () => {
    const bytes = readFileSync(path.join(FIXTURES, "replay.jsonl"));
    expect(readGeminiLines(bytes, "replay.jsonl")).toBeNull();
    expect(compare(bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1), "replay.jsonl", (n) => [...Array(n).keys()].map((i) => n - i))).toBe(true);
  });

  it("reads no lines from facts that are not its own: not JSON, another version, another line count, another shape", () => {
    const bytes = readFileSync(path.join(FIXTURES, "subagent.jsonl"));
    const facts = readGeminiLines(bytes, "subagent.jsonl")!.facts!();
    const lines = byteCopyLines(bytes).lines;
    const text = (line: number) => lines[line - 1]!;
    expect(geminiLinesFromFacts(facts, lines.length, text, "subagent.jsonl")).not.toBeNull();
    expect(geminiLinesFromFacts(facts.slice(0, -1), lines.length, text, "subagent.jsonl")).toBeNull();
    expect(geminiLinesFromFacts(facts.replace("gemini-line-facts/1", "gemini-line-facts/0"), lines.length, text, "subagent.jsonl")).toBeNull();
    expect(geminiLinesFromFacts(facts, lines.length - 1, text, "subagent.jsonl")).toBeNull();
    expect(geminiLinesFromFacts(JSON.stringify({ ...JSON.parse(facts), made: 5 }), lines.length, text, "subagent.jsonl")).toBeNull();
  });

  it.skipIf(!HAS_SHARED)("gives the full read's records for every corpus chat it reads", async () => {
    const { sessions } = await geminiSource.discover(path.join(SHARED_DIR, "corpus", "agents-home", ".gemini"));
    let fast = 0;
    for (const found of sessions) {
      const exported = await geminiSource.exportLines(found);
      const bytes = Buffer.from(exported.lines.map((l) => `${l}\n`).join(""));
      const half = Math.ceil(exported.lines.length / 2);
      if (compare(bytes, found.fileName)) fast++;
      compare(bytes, found.fileName, undefined, { start: 1, end: exported.lines.length });
      compare(bytes, found.fileName, undefined, { start: half, end: half + 5 });
    }
    expect(fast).toBeGreaterThan(sessions.length / 2);
  });
});

/** A message's tool calls: ids drawn from `callIds` (shared across lines, some empty or not strings), some items not objects. */
function toolCalls(r: () => number, callIds: string[]): unknown[] {
  const calls: unknown[] = [];
  for (let k = Math.floor(r() * 3); k > 0; k--) {
    const roll = r();
    if (roll < 0.05) calls.push("not a call");
    else if (roll < 0.1) calls.push({ id: "", name: "ls" });
    else if (roll < 0.15) calls.push({ id: 4, name: "ls" });
    else {
      const id = callIds.length > 0 && r() < 0.4 ? callIds[Math.floor(r() * callIds.length)]! : `c${callIds.length}`;
      if (!callIds.includes(id)) callIds.push(id);
      const command = ["npm test", "ls src", "cat a.ts"][Math.floor(r() * 3)]!;
      calls.push({ id, name: r() < 0.5 ? "run_shell_command" : "read_file", args: r() < 0.5 ? { command } : { file_path: `src/${callIds.length}.ts` }, status: r() < 0.2 ? "error" : "success", result: [{ functionResponse: { id, name: "x", response: { output: `out ${command}` } } }] });
    }
  }
  return calls;
}

/** One line of a generated chat: a message (with calls), a replacement, a rewind, a `$set`, a header or an odd record. */
function chatLine(r: () => number, ids: string[], callIds: string[], line: number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const id = ids.length > 0 && r() < 0.25 ? pick(ids) : `m${line}`;
  if (!ids.includes(id)) ids.push(id);
  const time = pick(["2026-04-10T09:00:00.000Z", "2026-04-11T10:00:00+02:00", "nope", null]);
  // A raw U+2028 (JSON.stringify leaves it raw) is a break: the chat is declined.
  const content = r() < 0.01 ? [{ text: "look at \u2028 this" }] : pick<unknown>(["fix the bug", "  <session_context>cwd</session_context>", [{ text: "look" }, "at this"], { text: "hello" }, undefined]);
  const kind = r();
  let value: Record<string, unknown>;
  if (kind < 0.35) value = { id, timestamp: time, type: pick(["user", "user", "user", "gemini", "info", "error", "odd"]), content };
  else if (kind < 0.6) value = { id, timestamp: time, type: "gemini", content: pick(["Running it.", "npm test", ""]), thoughts: [{ subject: "Plan", description: "run the tests" }], toolCalls: toolCalls(r, callIds), tokens: { input: 5, output: 2 }, model: "gemini-2.5-pro" };
  else if (kind < 0.68) value = { $rewindTo: r() < 0.8 ? pick(ids) : "missing" };
  else if (kind < 0.76) value = { $set: r() < 0.5 ? { summary: "t", lastUpdated: time } : { messages: ids.filter(() => r() < 0.6).map((i): unknown => (r() < 0.9 ? { id: i, type: "user", content: "again" } : "x")).concat(r() < 0.3 ? [{ id: `n${line}` }] : []) } };
  else if (kind < 0.8) value = { sessionId: "s", projectHash: "h", kind: r() < 0.5 ? "subagent" : "main" };
  else if (kind < 0.83) value = { type: "strange", 1: "x" };
  else value = { id, type: "user", content: "continue" };
  let text = JSON.stringify(value);
  // Duplicate keys (the last wins), spaces, an escaped key (declined), a call's escaped key (declined).
  if (r() < 0.05) text = text.replace("{", `{"type":"user","id":"m${line}",`);
  if (r() < 0.05) text = ` ${text.replace(/,/g, " ,\t")} `;
  if (r() < 0.01) text = `${text}\r`;
  if (r() < 0.02) text = text.replace('"id"', '"\\u0069d"');
  if (r() < 0.02) text = text.replace('{"id":"c', '{"\\u0069d":"c');
  return text;
}

describe("readGeminiLines on generated and damaged chats (seeded)", () => {
  it("equals the full read wherever it answers, records asked for in any order, and answers for most undamaged chats", () => {
    let undamagedFast = 0;
    let damagedFast = 0;
    for (let seed = 1; seed <= 500; seed++) {
      const r = seededRandom(seed);
      const ids: string[] = [];
      const callIds: string[] = [];
      const count = 1 + Math.floor(r() * 30);
      // The first line is the header whatever it holds.
      const first = r() < 0.15 ? { startTime: "2026-04-10T08:00:00Z", summary: "no ids" } : { sessionId: "s", projectHash: "h", startTime: "2026-04-10T08:00:00Z", kind: r() < 0.1 ? "subagent" : undefined };
      const lines = [JSON.stringify(first)];
      for (let line = 2; line <= count; line++) lines.push(chatLine(r, ids, callIds, line));
      const text = `${lines.join("\n")}\n`;
      const shuffled = (n: number) => [...Array(n).keys()].map((i) => ({ line: i + 1, key: r() })).sort((a, b) => a.key - b.key).map((x) => x.line);
      // No window, all of it, or a part (its ends inside or past the chat).
      const window = (): { start: number; end: number } | undefined => {
        const roll = r();
        if (roll < 0.2) return undefined;
        if (roll < 0.4) return { start: 1, end: count };
        const start = 1 + Math.floor(r() * count);
        return { start, end: start + Math.floor(r() * count) };
      };
      if (compare(Buffer.from(text), `fuzz-${seed}.jsonl`, shuffled, window())) undamagedFast++;
      if (compare(damagedBytes(r, text), `fuzz-${seed}.jsonl`, shuffled, window())) damagedFast++;
    }
    expect(undamagedFast).toBeGreaterThan(300);
    expect(damagedFast).toBeGreaterThan(50);
  });
});
