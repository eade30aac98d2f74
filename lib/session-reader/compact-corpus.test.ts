import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { splitPhysicalLines } from "@/lib/jsonl/split-lines";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

import { buildCompactRecords } from "./compact";
import { parseJsonObject } from "@/lib/sources/common/py-compat";
import { TRIM_MARKER } from "./trim";

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
