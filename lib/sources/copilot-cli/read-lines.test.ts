import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { agentEnding, agentRequest } from "@/lib/forensics/agent-session";
import { byteCopyLines } from "@/lib/jsonl/text-lines";
import { compactAgentBody } from "@/lib/session-reader/compact-agent";
import { transcriptLines } from "@/lib/sources/common/agent-source";
import { parseJsonObject } from "@/lib/sources/common/json-object";
import { parseCopilotLines } from "@/lib/sources/copilot-cli/parse";
import { copilotLinesFromFacts, readCopilotLines } from "@/lib/sources/copilot-cli/read-lines";
import { copilotSource } from "@/lib/sources/copilot-cli/source";
import { damagedBytes, seededRandom } from "@/lib/testing/random";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

if (!HAS_SHARED) console.warn(SKIP_SHARED_MESSAGE);

const FIXTURES = path.join(__dirname, "__fixtures__", "session-state");

/**
 * The window reader's answers checked equal to the full read's when it gives them (records asked
 * for in the order `order` gives, the compact bodies, the request and the ending built from both);
 * whether it gave them.
 */
function compare(bytes: Buffer, file: string, order: (count: number) => number[] = (n) => [...Array(n).keys()].map((i) => i + 1)): boolean {
  const fast = readCopilotLines(bytes, file);
  if (fast === null) return false;
  const full = parseCopilotLines(byteCopyLines(bytes).lines, file);
  const lines = transcriptLines(full);
  expect(fast.lineCount).toBe(full.records.length);
  for (const line of order(fast.lineCount)) expect(fast.record(line)).toEqual(full.records[line - 1]);
  expect(fast.record(0)).toBeUndefined();
  expect(fast.record(fast.lineCount + 1)).toBeUndefined();
  const ids = new Set(["(none)"]);
  for (const r of full.records) for (const c of [...r.calls, ...r.results]) if (c.id !== null) ids.add(c.id);
  for (const id of ids) expect(fast.firstCall(id)).toEqual(lines.firstCall(id));
  expect(fast.firstRewindLine()).toBe(lines.firstRewindLine());
  // A fresh reader, its records made as compact bodies ask for them (a result's call).
  const fresh = readCopilotLines(bytes, file)!;
  for (const line of order(fast.lineCount)) expect(compactAgentBody(fresh, line)).toEqual(compactAgentBody(full, line));
  const NOW = Date.parse("2026-12-01T00:00:00Z");
  expect(agentRequest(readCopilotLines(bytes, file)!)).toEqual(agentRequest(full));
  expect(agentEnding(readCopilotLines(bytes, file)!, NOW)).toEqual(agentEnding(full, NOW));
  // Read again from the facts the first read gave (as stored: JSON text), each line read only when a record needs it.
  const texts = byteCopyLines(bytes).lines;
  const stored = copilotLinesFromFacts(fast.facts!(), fast.lineCount, (line) => texts[line - 1]!, file)!;
  for (const line of order(fast.lineCount)) expect(compactAgentBody(stored, line)).toEqual(compactAgentBody(full, line));
  for (const line of order(fast.lineCount)) expect(stored.record(line)).toEqual(full.records[line - 1]);
  for (const id of ids) expect(stored.firstCall(id)).toEqual(lines.firstCall(id));
  expect(copilotLinesFromFacts(fast.facts!(), fast.lineCount + 1, (line) => texts[line - 1]!, file)).toBeNull();
  expect(copilotLinesFromFacts(fast.facts!().replace("copilot-line-facts/1", "copilot-line-facts/0"), fast.lineCount, (line) => texts[line - 1]!, file)).toBeNull();
  return true;
}

/** Last line first: a completion's record made before the line that named its call. */
const backwards = (n: number) => [...Array(n).keys()].map((i) => n - i);

describe("readCopilotLines on the reader fixtures and the corpus", () => {
  it.each(readdirSync(FIXTURES))("%s: equal to the full read, declined with a malformed or half-written line", (folder) => {
    const bytes = readFileSync(path.join(FIXTURES, folder, "events.jsonl"));
    const whole = bytes.at(-1) === 0x0a ? bytes : bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1);
    const objects = byteCopyLines(whole).lines.filter((l) => parseJsonObject(l) !== null);
    const valid = objects.length === byteCopyLines(whole).lines.length;
    expect(compare(whole, folder)).toBe(valid);
    // Without its malformed lines, every fixture is read.
    expect(compare(Buffer.from(objects.map((l) => `${l}\n`).join("")), folder, backwards)).toBe(true);
    expect(readCopilotLines(Buffer.concat([whole, Buffer.from('{"type":"assistant.message","data":{"con')]), folder)).toBeNull();
  });

  it.skipIf(!HAS_SHARED)("gives the full read's records for every corpus session", async () => {
    const { sessions } = await copilotSource.discover(path.join(SHARED_DIR, "corpus", "agents-home", ".copilot"));
    expect(sessions.length).toBeGreaterThan(0);
    for (const found of sessions) {
      const exported = await copilotSource.exportLines(found);
      const bytes = Buffer.from(exported.lines.map((l) => `${l}\n`).join(""));
      expect(compare(bytes, found.fileName)).toBe(true);
      expect(compare(bytes, found.fileName, backwards)).toBe(true);
    }
  });
});

/** One line of a generated events file: calls and their starts and completions (ids shared, reused, missing), prompts, odd events. */
function eventLine(r: () => number, callIds: string[], line: number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const id = (): unknown => {
    const roll = r();
    if (roll < 0.05) return pick<unknown>(["", 7, null]);
    if (roll < 0.1) return "never-called";
    if (callIds.length > 0 && roll < 0.6) return pick(callIds);
    const fresh = `call-${line}-${Math.floor(r() * 3)}`;
    callIds.push(fresh);
    return fresh;
  };
  const args = () => pick<unknown>([{ command: "npm test" }, { path: `src/${line}.ts` }, { pattern: "TODO", path: "src" }, null, "odd"]);
  const time = pick<unknown>(["2026-07-01T09:00:00.000Z", "2026-07-01T11:00:00+02:00", "nope", null]);
  const kind = r();
  let value: unknown;
  if (kind < 0.2) {
    const requests: unknown[] = [];
    for (let k = Math.floor(r() * 3); k > 0; k--) requests.push(r() < 0.1 ? "not a request" : { toolCallId: id(), name: pick(["bash", "view", "", 3]), arguments: args() });
    value = { type: "assistant.message", data: { content: pick(["Running it.", "", null]), toolRequests: r() < 0.1 ? "none" : requests, model: "gpt-5" }, timestamp: time };
  } else if (kind < 0.35) value = { type: "tool.execution_start", data: { toolCallId: id(), toolName: pick(["bash", "view", "edit"]), arguments: args() }, timestamp: time };
  else if (kind < 0.55)
    value = {
      type: "tool.execution_complete",
      data: { toolCallId: id(), success: pick([true, false, "yes"]), result: pick<unknown>([{ content: "ok\n<exited with exit code 1>" }, { contents: [{ type: "text", text: "part" }] }, null]), error: r() < 0.2 ? { message: "boom" } : undefined },
      timestamp: time,
    };
  else if (kind < 0.62) value = { type: "tool.user_requested", data: { toolCallId: id(), toolName: "bash", arguments: args() }, timestamp: time };
  else if (kind < 0.75) value = { type: "user.message", data: pick<unknown>([{ content: "fix it" }, { content: "x", source: "skill-pdf" }, "not an object"]), timestamp: time };
  else if (kind < 0.82) value = { type: pick(["session.resume", "session.shutdown", "session.model_change", "session.snapshot_rewind", "session.quantum_sync", ""]), data: { selectedModel: "gpt-5" }, timestamp: time };
  else if (kind < 0.86) value = { data: { content: "untyped" } };
  else if (kind < 0.9) value = { type: "tool.execution_complete", data: "not an object" };
  else if (kind < 0.93) value = pick<unknown>([[1, 2], "text", 3, null]);
  else value = { type: "assistant.message", data: { content: "the same calls again", toolRequests: callIds.slice(-2).map((c) => ({ toolCallId: c, name: "bash", arguments: { command: "ls" } })) } };
  let text = JSON.stringify(value) ?? "null";
  // Duplicate keys (the last wins), JSON whitespace, escaped keys where the reader reads keys (declined) and where it does not.
  if (r() < 0.05 && text.startsWith("{")) text = text.replace("{", `{"type":"tool.execution_start","data":{"toolCallId":"dup","toolName":"bash"},`);
  if (r() < 0.05) text = ` ${text.replace(/,/g, " ,\t")} `;
  if (r() < 0.02) text = text.replace('"toolCallId"', '"toolCall\\u0049d"');
  if (r() < 0.02) text = text.replace('"arguments"', '"argument\\u0073"');
  if (r() < 0.01) text = text.replace('"content":"', '"content":"raw \u2028 break ');
  return text;
}

describe("readCopilotLines on generated and damaged events files (seeded)", () => {
  it("equals the full read wherever it answers, records asked for in any order, and answers for most undamaged files", () => {
    let undamagedFast = 0;
    let damagedFast = 0;
    for (let seed = 1; seed <= 500; seed++) {
      const r = seededRandom(seed);
      const callIds: string[] = [];
      const lines = [JSON.stringify({ type: "session.start", data: { sessionId: "s", copilotVersion: "1.0.1" }, timestamp: "2026-07-01T08:00:00Z" })];
      const count = 1 + Math.floor(r() * 30);
      for (let line = 2; line <= count; line++) lines.push(eventLine(r, callIds, line));
      const text = `${lines.join("\n")}\n`;
      const shuffled = (n: number) => [...Array(n).keys()].map((i) => ({ line: i + 1, key: r() })).sort((a, b) => a.key - b.key).map((x) => x.line);
      if (compare(Buffer.from(text), `fuzz-${seed}.jsonl`, shuffled)) undamagedFast++;
      if (compare(damagedBytes(r, text), `fuzz-${seed}.jsonl`, shuffled)) damagedFast++;
    }
    expect(undamagedFast).toBeGreaterThan(200);
    expect(damagedFast).toBeGreaterThan(20);
  });
});
