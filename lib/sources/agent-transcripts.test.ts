import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it, vi } from "vitest";

import { silentLogger } from "@/lib/context";
import { agentEnding, agentRequest } from "@/lib/forensics/agent-session";
import { byteCopyLines } from "@/lib/jsonl/text-lines";
import { LINE_FACTS_MIN_BYTES, readAgentLines, readAgentTranscript, storeAgentLineFacts } from "@/lib/sources/agent-transcripts";
import { transcriptLines } from "@/lib/sources/common/agent-source";
import { parseJsonObject } from "@/lib/sources/common/json-object";
import { parseGeminiLines } from "@/lib/sources/gemini-cli/parse";
import { geminiSource } from "@/lib/sources/gemini-cli/source";
import { bigGeminiChat, GEMINI_REPLAY_FIXTURE } from "@/lib/testing/gemini-chats";
import { makeTempDir } from "@/lib/testing/shared";

const EVENTS = path.resolve("lib/sources/copilot-cli/__fixtures__/session-state/5f0c2a7e-3b1d-4c8e-9a6f-1d2e3f4a5b6c/events.jsonl");

describe("readAgentTranscript", () => {
  it("reads a session once while its file is unchanged, even one larger than the cache", async () => {
    const dir = await makeTempDir();
    const lines = (await fs.readFile(EVENTS, "utf8")).split("\n").filter((l) => l !== "");
    // ~10 MB: its transcript counts more than the 32 MB the cache keeps.
    const big = path.join(dir, "big.jsonl");
    const body = lines.slice(1).join("\n");
    await fs.writeFile(big, [lines[0], ...Array.from({ length: Math.ceil(10e6 / body.length) }, () => body)].join("\n") + "\n");
    const small = path.join(dir, "small.jsonl");
    await fs.copyFile(EVENTS, small);
    const first = await readAgentTranscript("copilot-cli", big);
    expect(first!.records.length).toBeGreaterThan(10_000);
    expect(await readAgentTranscript("copilot-cli", big)).toBe(first);
    // Another session read meanwhile: the small one stays cached, the large one is read again.
    const smallFirst = await readAgentTranscript("copilot-cli", small);
    expect(await readAgentTranscript("copilot-cli", big)).not.toBe(first);
    expect(await readAgentTranscript("copilot-cli", small)).toBe(smallFirst);
    // A change to the file is read.
    await fs.appendFile(small, `${lines[1]}\n`);
    expect((await readAgentTranscript("copilot-cli", small))!.records.length).toBe(smallFirst!.records.length + 1);
  });
});

const REPLAY = GEMINI_REPLAY_FIXTURE;

/** {@link bigGeminiChat} written to `file`; its bytes. */
async function bigChat(file: string, bytes: number): Promise<Buffer> {
  const data = Buffer.from(bigGeminiChat(bytes));
  await fs.writeFile(file, data);
  return data;
}

/** The replay fixture's whole lines, a chat the window reader reads (another session read between two reads of a big one). */
async function smallChat(dir: string): Promise<string> {
  const text = await fs.readFile(REPLAY, "utf8");
  const file = path.join(dir, "other.jsonl");
  await fs.writeFile(file, text.slice(0, text.lastIndexOf("\n") + 1));
  return file;
}

describe("readAgentLines with a line facts store (issue 38: a window of a big chat reads its own lines)", () => {
  it("stores a big chat's facts on its first read; a later read takes them instead of reading the chat, and answers as the whole read", async () => {
    const dir = await makeTempDir();
    const store = { cacheDir: path.join(dir, "index") };
    const big = path.join(dir, "big.jsonl");
    const data = await bigChat(big, LINE_FACTS_MIN_BYTES + 1000);
    const other = await smallChat(dir);
    const whole = parseGeminiLines(byteCopyLines(data).lines, big);
    const count = whole.records.length;
    const window = { start: Math.floor(count / 2), end: Math.floor(count / 2) + 300 };
    const readLines = vi.spyOn(geminiSource, "readLines");
    const wholeReads = () => readLines.mock.calls.filter(([, file]) => file === big).length;
    try {
      const first = (await readAgentLines("gemini-cli", big, window, store))!;
      expect(wholeReads()).toBe(1);
      expect((await fs.readdir(store.cacheDir)).filter((n) => n.endsWith(".facts"))).toHaveLength(1);
      // Another session read in between: the next read of the big chat is not the one kept in memory.
      await readAgentLines("gemini-cli", other, undefined, store);
      const stored = (await readAgentLines("gemini-cli", big, window, store))!;
      expect(stored).not.toBe(first);
      expect(wholeReads()).toBe(1);
      expect(stored.lineCount).toBe(count);
      // The window's records, lines before and after it (a rewind's, the first and last), every call, as the whole read has them.
      const asked = [1, 2, 10, 11, window.start - 1, count];
      for (let line = window.start; line <= window.end; line++) asked.push(line);
      for (const line of asked) expect(stored.record(line)).toEqual(whole.records[line - 1]);
      const all = transcriptLines(whole);
      for (const id of ["run_shell_command_1_0", "read_file_2_7", `read_file_2_${Math.floor(count / 24)}`, "missing"]) expect(stored.firstCall(id)).toEqual(all.firstCall(id));
      expect(stored.firstRewindLine()).toBe(all.firstRewindLine());
      expect(all.firstRewindLine()).not.toBeNull();
      // The pages that read a few records without a window (the request from the first line on, the ending from the last back).
      const NOW = Date.parse("2026-12-01T00:00:00Z");
      await readAgentLines("gemini-cli", other, undefined, store);
      expect(agentEnding((await readAgentLines("gemini-cli", big, undefined, store))!, NOW)).toEqual(agentEnding(whole, NOW));
      await readAgentLines("gemini-cli", other, undefined, store);
      expect(agentRequest((await readAgentLines("gemini-cli", big, undefined, store))!)).toEqual(agentRequest(whole));
      expect(wholeReads()).toBe(1);
      // A grown chat: its facts are stale, the chat is read again and its new facts stored.
      await fs.appendFile(big, `{"id":"u-late","type":"user","content":"one more"}\n`);
      await readAgentLines("gemini-cli", other, undefined, store);
      const grown = (await readAgentLines("gemini-cli", big, window, store))!;
      expect(wholeReads()).toBe(2);
      expect(grown.lineCount).toBe(count + 1);
      await readAgentLines("gemini-cli", other, undefined, store);
      expect((await readAgentLines("gemini-cli", big, undefined, store))!.record(count + 1)!.text).toBe("one more");
      expect(wholeReads()).toBe(2);
    } finally {
      readLines.mockRestore();
    }
  });

  it("sets a corrupt facts file aside with a warning and reads the chat; stores none below the size or without a store", async () => {
    const dir = await makeTempDir();
    const store = { cacheDir: path.join(dir, "index"), log: { ...silentLogger, warn: vi.fn() } };
    const big = path.join(dir, "big.jsonl");
    const data = await bigChat(big, LINE_FACTS_MIN_BYTES + 1000);
    const other = await smallChat(dir);
    await readAgentLines("gemini-cli", big, { start: 1, end: 10 }, store);
    const [name] = (await fs.readdir(store.cacheDir)).filter((n) => n.endsWith(".facts"));
    const facts = path.join(store.cacheDir, name!);
    await fs.writeFile(facts, (await fs.readFile(facts)).subarray(0, 100));
    await readAgentLines("gemini-cli", other, undefined, store);
    const lines = (await readAgentLines("gemini-cli", big, { start: 1, end: 10 }, store))!;
    expect(lines.record(3)).toEqual(parseGeminiLines(byteCopyLines(data).lines, big).records[2]);
    expect(store.log.warn).toHaveBeenCalledTimes(1);
    expect(String(store.log.warn.mock.calls[0]![0])).toMatch(/line facts/);
    // Read again and stored again.
    expect((await fs.readdir(store.cacheDir)).filter((n) => n.endsWith(".facts"))).toHaveLength(1);

    const small = path.join(dir, "small");
    await fs.mkdir(small);
    await readAgentLines("gemini-cli", other, undefined, { cacheDir: small });
    await storeAgentLineFacts("gemini-cli", other, { cacheDir: small });
    expect(await fs.readdir(small).catch(() => [])).toEqual([]);
  });

  it("keeps no big chat's bytes once its facts are stored; keeps its lines when they cannot be stored", async () => {
    const dir = await makeTempDir();
    const big = path.join(dir, "big.jsonl");
    await bigChat(big, LINE_FACTS_MIN_BYTES + 1000);
    const readLines = vi.spyOn(geminiSource, "readLines");
    const wholeReads = () => readLines.mock.calls.filter(([, file]) => file === big).length;
    try {
      // Stored: the next read of the same file takes the facts, not the lines (and bytes) of the first.
      const store = { cacheDir: path.join(dir, "index") };
      const first = await readAgentLines("gemini-cli", big, { start: 1, end: 5 }, store);
      const next = await readAgentLines("gemini-cli", big, { start: 1, end: 5 }, store);
      expect(next).not.toBe(first);
      expect(wholeReads()).toBe(1);
      expect(await readAgentLines("gemini-cli", big, { start: 1, end: 5 }, store)).toBe(next);
      // Not stored (the index folder is a file): the lines are kept, the chat is not read again.
      const blocked = path.join(dir, "not-a-folder");
      await fs.writeFile(blocked, "");
      await fs.appendFile(big, `{"id":"u-late","type":"user","content":"one more"}\n`);
      const kept = await readAgentLines("gemini-cli", big, { start: 1, end: 5 }, { cacheDir: blocked });
      expect(await readAgentLines("gemini-cli", big, { start: 1, end: 5 }, { cacheDir: blocked })).toBe(kept);
      expect(wholeReads()).toBe(2);
    } finally {
      readLines.mockRestore();
    }
  });

  it("storeAgentLineFacts stores a big chat's facts once, and none for a source without them or a file its reader declines", async () => {
    const dir = await makeTempDir();
    const store = { cacheDir: path.join(dir, "index") };
    const big = path.join(dir, "big.jsonl");
    await bigChat(big, LINE_FACTS_MIN_BYTES + 1000);
    await storeAgentLineFacts("gemini-cli", big, store);
    const [name] = await fs.readdir(store.cacheDir);
    const written = (await fs.stat(path.join(store.cacheDir, name!))).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));
    await storeAgentLineFacts("gemini-cli", big, store);
    expect((await fs.stat(path.join(store.cacheDir, name!))).mtimeMs).toBe(written);
    // Aider's reader has no facts: nothing is stored for its history, however big.
    const aider = path.join(dir, ".aider.chat.history.md");
    await fs.writeFile(aider, "# aider chat started at 2026-07-01 09:00:00\n\n#### fix it\n\nDone.\n\n".repeat(Math.ceil(LINE_FACTS_MIN_BYTES / 60)));
    await storeAgentLineFacts("aider", aider, store);
    expect(await fs.readdir(store.cacheDir)).toEqual([name]);
    // Copilot's has: an events file of whole events gets them, one with a malformed line (its reader declines it) none.
    const events = (await fs.readFile(EVENTS, "utf8")).split("\n").filter((l) => parseJsonObject(l) !== null);
    const copilot = path.join(dir, "events.jsonl");
    await fs.writeFile(copilot, `${events.join("\n")}\n`.repeat(2 + Math.ceil(LINE_FACTS_MIN_BYTES / (await fs.stat(EVENTS)).size)));
    await storeAgentLineFacts("copilot-cli", copilot, store);
    expect(await fs.readdir(store.cacheDir)).toHaveLength(2);
    const broken = path.join(dir, "broken", "events.jsonl");
    await fs.mkdir(path.dirname(broken));
    await fs.writeFile(broken, `${events.join("\n")}\n{"type":"assistant.mes\n`.repeat(2 + Math.ceil(LINE_FACTS_MIN_BYTES / (await fs.stat(EVENTS)).size)));
    await storeAgentLineFacts("copilot-cli", broken, store);
    expect(await fs.readdir(store.cacheDir)).toHaveLength(2);
  });
});
