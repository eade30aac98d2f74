/** Compact records of every corpus transcript line: line numbers, byte sizes, hashes, trimming bounds. */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { buildLineIndex, readLineRange } from "@/lib/jsonl/line-index";
import { splitPhysicalLines } from "@/lib/testing/split-lines";
import { readCompactRecords } from "@/lib/session-reader/read-session-lines";
import { compactRecordCache } from "@/lib/session-reader/record-cache";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

import { buildCompactRecords } from "./compact";
import { parseJsonObject } from "@/lib/sources/common/json-object";
import { TRIM_MARKER } from "@/lib/sources/common/trim";

const CORPUS = path.join(SHARED_DIR, "corpus");
/** Largest trimmed preview: 320-byte head + marker + 160-byte tail. */
const MAX_TRIMMED_BYTES = 320 + Buffer.byteLength(TRIM_MARKER) + 160;

function corpusFiles(): string[] {
  if (!HAS_SHARED) return [];
  return readdirSync(CORPUS, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".jsonl"))
    .sort();
}

/** Source by corpus folder: codex/ and claude-code/ transcripts; anything else (ledgers) is foreign. */
function sourceOf(file: string): string {
  const top = file.split(path.sep)[0];
  return top === "codex" || top === "claude-code" ? top : "other";
}

describe.skipIf(!HAS_SHARED)(`every corpus line compacts ${HAS_SHARED ? "" : SKIP_SHARED_MESSAGE}`, () => {
  it.each(corpusFiles())("%s", (file) => {
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(readFileSync(path.join(CORPUS, file)));
    const lines = splitPhysicalLines(text).map((line, i) => ({ line: i + 1, text: line }));
    const records = buildCompactRecords(lines, sourceOf(file));

    expect(records).toHaveLength(lines.length);
    records.forEach((record, i) => {
      const physical = lines[i]!;
      expect(record.line).toBe(physical.line);
      expect(record.raw_bytes).toBe(Buffer.byteLength(physical.text, "utf8"));
      expect(record.raw_sha256).toMatch(/^[0-9a-f]{64}$/);
      const parsed = parseJsonObject(physical.text);
      if (parsed !== null && typeof parsed.type === "string" && parsed.type.trim() !== "") {
        expect(record.record_type, `line ${physical.line}`).not.toBe("unknown");
      }
      for (const result of record.tool_results) {
        if (result.truncated) expect(Buffer.byteLength(result.preview ?? "")).toBeLessThanOrEqual(MAX_TRIMMED_BYTES);
        else expect(result.raw_bytes).toBeLessThanOrEqual(1024);
      }
      if (record.content_kinds.includes("thinking") && record.content_kinds.length === 1) {
        expect(record.text_preview).toBeNull();
      }
    });
  });

  it("found the corpus", () => {
    expect(corpusFiles().length).toBeGreaterThan(10);
  });
});

/** Session files of the reference project's fixture workspaces, relative to the fixtures folder. */
function fixtureSessions(): string[] {
  if (!HAS_SHARED) return [];
  return readdirSync(FIXTURES, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".jsonl") && /[/\\]sessions[/\\](codex|claude-code)[/\\]/.test(file))
    .sort();
}
const FIXTURES = path.join(SHARED_DIR, "fixtures", "prompt-diary");

describe.skipIf(!HAS_SHARED)(`stored compact blocks give one pass's records on every real file ${HAS_SHARED ? "" : SKIP_SHARED_MESSAGE}`, () => {
  // Blocks are built 32 lines at a time, each with the lines just outside it as context (issue
  // 13): on real transcripts, malformed lines and Codex echoes included, the records must be
  // those of one pass over the whole file, built cold and read back from the store.
  const files = [...corpusFiles().map((f) => [path.join(CORPUS, f), sourceOf(f)]), ...fixtureSessions().map((f) => [path.join(FIXTURES, f), f.includes("claude-code") ? "claude-code" : "codex"])];
  it.each(files)("%s", async (file, source) => {
    const index = await buildLineIndex(file);
    if (index.lineCount === 0) return;
    const whole = buildCompactRecords(await readLineRange(file, index, 1, index.lineCount), source);
    const store = await makeTempDir();
    for (let pass = 0; pass < 2; pass++) {
      compactRecordCache.clear();
      const records = [];
      for (let start = 1; start <= index.lineCount; start += 2000) records.push(...(await readCompactRecords(file, index, start, Math.min(index.lineCount, start + 1999), source, store)));
      expect(records).toEqual(whole);
    }
  });

  it("found the files", () => {
    expect(files.length).toBeGreaterThan(60);
  });
});
