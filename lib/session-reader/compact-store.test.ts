/** Tests of the persisted compact record store. */
import { readdirSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { buildLineIndex } from "@/lib/jsonl/line-index";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

import { COMPACT_BLOCK_LINES, CompactStore } from "./compact-store";
import { readCompactRecords } from "./read-session-lines";
import { compactRecordCache } from "./record-cache";

const CORPUS = path.join(SHARED_DIR, "corpus");

function corpusSessions(): string[] {
  if (!HAS_SHARED) return [];
  return readdirSync(CORPUS, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".jsonl") && (file.startsWith(`codex${path.sep}`) || file.startsWith(`claude-code${path.sep}`)))
    .sort();
}

/** Today's records: the whole file built in one span, no store. */
async function freshRecords(file: string, source: string): Promise<string> {
  const index = await buildLineIndex(file);
  compactRecordCache.clear();
  const records = index.lineCount === 0 ? [] : await readCompactRecords(file, index, 1, index.lineCount, source);
  compactRecordCache.clear();
  return JSON.stringify(records);
}

/** Windows of `width` lines through the store, memory cache emptied before each one. */
async function storedRecords(file: string, source: string, storeDir: string, width: number): Promise<string> {
  const index = await buildLineIndex(file);
  const parts: string[] = [];
  for (let start = 1; start <= index.lineCount; start += width) {
    compactRecordCache.clear();
    const records = await readCompactRecords(file, index, start, Math.min(index.lineCount, start + width - 1), source, storeDir);
    parts.push(...records.map((r) => JSON.stringify(r)));
  }
  compactRecordCache.clear();
  return `[${parts.join(",")}]`;
}

describe.skipIf(!HAS_SHARED)(`persisted compact records equal today's on every corpus session ${HAS_SHARED ? "" : SKIP_SHARED_MESSAGE}`, () => {
  it.each(corpusSessions())("%s", async (file) => {
    const source = file.split(path.sep)[0]!;
    const absolute = path.join(CORPUS, file);
    const storeDir = await makeTempDir("casefile-compact-store-");
    const expected = await freshRecords(absolute, source);
    expect(await storedRecords(absolute, source, storeDir, 137)).toBe(expected); // builds and persists blocks
    expect(await storedRecords(absolute, source, storeDir, 211)).toBe(expected); // served from the persisted blocks
    await fs.rm(storeDir, { recursive: true, force: true });
  });
});

describe("compact store", () => {
  const line = (i: number) => JSON.stringify({ type: "user", timestamp: "2026-05-12T01:00:00Z", message: { role: "user", content: `message ${i}` } });

  it("serves a second window from disk without reading the session's lines again", async () => {
    const dir = await makeTempDir("casefile-compact-store-");
    const file = path.join(dir, "s.jsonl");
    await fs.writeFile(file, Array.from({ length: COMPACT_BLOCK_LINES + 20 }, (_, i) => line(i + 1)).join("\n") + "\n");
    const storeDir = path.join(dir, "index");
    const index = await buildLineIndex(file);
    compactRecordCache.clear();
    const [from, to] = [COMPACT_BLOCK_LINES - 10, COMPACT_BLOCK_LINES + 10];
    const first = await readCompactRecords(file, index, from, to, "claude-code", storeDir);
    expect(first.map((r) => r.line)).toEqual(Array.from({ length: 21 }, (_, i) => from + i));
    const store = new CompactStore(storeDir, file, index, "claude-code");
    expect((await store.read(0))?.length).toBe(COMPACT_BLOCK_LINES);
    expect((await store.read(1))?.length).toBe(20);
    // Same size and mtime, different bytes: the store (not the file) answers.
    const stat = await fs.stat(file);
    await fs.writeFile(file, (await fs.readFile(file, "utf8")).replace(`message ${COMPACT_BLOCK_LINES}"`, `MESSAGE ${COMPACT_BLOCK_LINES}"`));
    await fs.utimes(file, stat.atime, stat.mtime);
    compactRecordCache.clear();
    expect(await readCompactRecords(file, index, from, to, "claude-code", storeDir)).toEqual(first);
  });

  it("rebuilds after the file changes and drops the old version's blocks", async () => {
    const dir = await makeTempDir("casefile-compact-store-");
    const file = path.join(dir, "s.jsonl");
    await fs.writeFile(file, [line(1), line(2)].join("\n") + "\n");
    const storeDir = path.join(dir, "index");
    compactRecordCache.clear();
    const before = await readCompactRecords(file, await buildLineIndex(file), 1, 2, "claude-code", storeDir);
    expect(before[1]!.text_preview).toBe("message 2");
    await fs.appendFile(file, line(3) + "\n");
    const index = await buildLineIndex(file);
    const after = await readCompactRecords(file, index, 1, 3, "claude-code", storeDir);
    expect(after.map((r) => r.text_preview)).toEqual(["message 1", "message 2", "message 3"]);
    const names = await fs.readdir((await fs.readdir(storeDir)).map((d) => path.join(storeDir, d))[0]!);
    expect(names).toHaveLength(1);
    expect(names[0]).toContain(`-${index.size}-`);
  });
});
