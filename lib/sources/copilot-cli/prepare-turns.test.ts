import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

import { lazyByteCopyLines } from "@/lib/jsonl/text-lines";
import { preparedTurns, type ExportedLines } from "@/lib/sources/common/agent-source";
import { parseCopilotLines } from "@/lib/sources/copilot-cli/parse";
import { prepareCopilotTurns } from "@/lib/sources/copilot-cli/prepare-turns";
import { copilotSource } from "@/lib/sources/copilot-cli/source";
import { damagedBytes, seededRandom } from "@/lib/testing/random";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

if (!HAS_SHARED) console.warn(SKIP_SHARED_MESSAGE);

const FIXTURES = path.join(__dirname, "__fixtures__", "session-state");

/** The turns-only read's answer, checked equal to the full read's when it gives one; whether it gave one. */
function compare(exported: ExportedLines, file: string): boolean {
  const fast = prepareCopilotTurns(exported, file);
  const full = preparedTurns(parseCopilotLines(exported.lines, file));
  if (fast === null) return false;
  expect(fast).toEqual(full);
  return true;
}

/** The export of an events file's bytes, as exportCopilotLines makes it. */
const exportOf = (bytes: Buffer): ExportedLines => ({ ...lazyByteCopyLines(bytes), warnings: [] });

describe.skipIf(!HAS_SHARED)("prepareCopilotTurns on the corpus", () => {
  it("gives the full read's turns, prompt times and warnings for every corpus session, from the bytes", async () => {
    const { sessions } = await copilotSource.discover(path.join(SHARED_DIR, "corpus", "agents-home", ".copilot"));
    expect(sessions.length).toBeGreaterThan(0);
    for (const found of sessions) {
      const exported = await copilotSource.exportLines(found);
      expect(compare(exported, found.fileName)).toBe(true);
      expect(prepareCopilotTurns(exported, found.fileName)!.turns.length).toBeGreaterThan(0);
    }
  });
});

describe("prepareCopilotTurns on the reader fixtures", () => {
  it.each(readdirSync(FIXTURES))("%s: equal to the full read", (folder) => {
    const bytes = readFileSync(path.join(FIXTURES, folder, "events.jsonl"));
    // A file of whole lines takes the fast path; one ending inside a line (half-written) has no bytes to read.
    expect(compare(exportOf(bytes), folder)).toBe(bytes.at(-1) === 0x0a);
    expect(compare(exportOf(Buffer.concat([bytes, Buffer.from("\n")])), folder)).toBe(true);
  });

  it("reads a malformed line, an unknown and an untyped event, and a split event as the full read does", () => {
    const lines = [
      { type: "session.start", data: { sessionId: "s" }, timestamp: "2026-07-01T09:00:00.000Z" },
      { type: "user.message", data: { content: "first" }, timestamp: "2026-07-01T09:00:01.000Z" },
      '{"type":"assistant.message","data":{"content":"cut',
      { type: "session.quantum_sync", data: {} },
      { data: { content: "no type" } },
      { type: "user.message", data: { content: "sub" }, agentId: "a1", timestamp: "2026-07-01T09:00:02.000Z" },
      { type: "user.message", data: { content: "skill", source: "skill-pdf" } },
      { type: "user.message", data: { content: "go on", isAutopilotContinuation: true } },
      { type: "user.message", data: { content: "second" }, timestamp: "2026-07-01T09:00:03Z" },
      { type: "toString", data: {} },
    ].map((v) => (typeof v === "string" ? v : JSON.stringify(v)));
    const text = `${lines.join("\n")}\n`;
    const exported = exportOf(Buffer.from(text));
    expect(compare(exported, "x.jsonl")).toBe(true);
    const fast = prepareCopilotTurns(exported, "x.jsonl")!;
    expect(fast.turns).toEqual([
      { turn_start_line: 2, turn_end_line: 8 },
      { turn_start_line: 9, turn_end_line: 10 },
    ]);
    expect(fast.promptTimes).toEqual(["2026-07-01T09:00:01.000Z", "2026-07-01T09:00:03.000Z"]);
    expect(fast.warnings.map((w) => `${w.where}: ${w.problem}`)).toEqual([
      "line 3: not valid JSON (Unterminated string in JSON at position 50)",
      "line 4: unknown event type session.quantum_sync",
      "line 5: event without a type",
      "line 10: unknown event type toString",
    ]);
  });
});

/** One line of a generated events file: a prompt of some kind, an event of a known, plain, unknown or missing type, or an odd value. */
function eventLine(r: () => number, line: number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const time = pick<unknown>(["2026-07-01T09:00:00.000Z", "2026-07-01T09:00:00", "2026-07-01T11:00:00+02:00", "nope", 17, null, undefined]);
  const kind = r();
  let value: unknown;
  if (kind < 0.35) {
    const data = pick<unknown>([{ content: "fix it" }, { content: "x", source: pick(["skill-pdf", "agent-7", "user", "", 3]) }, { content: "more", isAutopilotContinuation: pick([true, false, "true"]) }, "not an object", null, [1]]);
    value = { type: "user.message", data, timestamp: time, ...(r() < 0.2 ? { agentId: pick<unknown>(["a1", 5, null]) } : {}), id: `e${line}` };
  } else if (kind < 0.65) value = { type: pick(["assistant.message", "tool.execution_start", "session.shutdown", "session.idle", "hook.end", "abort"]), data: { content: "done", toolRequests: [] }, timestamp: time };
  else if (kind < 0.75) value = { type: pick(["session.quantum_sync", "", 7, null, "constructor", "__proto__"]), data: {} };
  else if (kind < 0.8) value = { data: { content: "untyped" } };
  else if (kind < 0.97) value = pick<unknown>([[1, 2], "text", 3, null]);
  else value = { type: "user.message", data: { content: "line\u2028break \u2029 and \u0085" }, timestamp: time };
  let text = JSON.stringify(value) ?? "null";
  // Duplicate keys (the last wins), JSON whitespace, an escaped key, a raw break JSON.stringify leaves.
  if (r() < 0.05 && text.startsWith("{")) text = text.replace("{", `{"type":"user.message","data":{"content":"dup"},`);
  if (r() < 0.05) text = ` ${text.replace(/,/g, " ,\t")}\r`;
  if (r() < 0.03) text = text.replace('"type"', '"\\u0074ype"');
  if (r() < 0.03) text = text.replace('"agentId"', '"agent\\u0049d"');
  return text;
}

describe("prepareCopilotTurns on generated and damaged events files (seeded)", () => {
  it("equals the full read wherever it answers, and answers for every file whose breaks are all newlines", () => {
    let fast = 0;
    for (let seed = 1; seed <= 600; seed++) {
      const r = seededRandom(seed);
      const lines = [JSON.stringify({ type: "session.start", data: { sessionId: "s" }, timestamp: "2026-07-01T08:00:00Z" })];
      const count = 1 + Math.floor(r() * 30);
      for (let line = 2; line <= count; line++) lines.push(eventLine(r, line));
      const text = `${lines.join("\n")}\n`;
      const exported = exportOf(Buffer.from(text));
      expect(compare(exported, `fuzz-${seed}.jsonl`)).toBe(exported.bytes !== undefined);
      if (compare(exportOf(damagedBytes(r, text)), `fuzz-${seed}.jsonl`)) fast++;
    }
    expect(fast).toBeGreaterThan(100);
  });
});
