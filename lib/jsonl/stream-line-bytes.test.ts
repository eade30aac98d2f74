/** Tests of streamLineBytes: lines and the line index in one pass, over fixtures and the corpus. */
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { scannerOf } from "@/lib/jsonl/json-scan";
import { buildLineIndex, readLineRange, type LineIndex } from "@/lib/jsonl/line-index";
import { streamLineBytes, type StreamLineBytesOptions } from "@/lib/jsonl/stream-line-bytes";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

let dir: string;
let fileNo = 0;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "stream-line-bytes-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeTemp(bytes: Uint8Array): Promise<string> {
  const file = path.join(dir, `f${fileNo++}.jsonl`);
  await writeFile(file, bytes);
  return file;
}

const b = (...parts: (string | number[])[]): Buffer => Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p))));

/** Streams `file`; returns each line's text, content bytes and terminator bytes, and the index. */
async function streamed(file: string, options: StreamLineBytesOptions = {}): Promise<{ lines: { line: number; text: string; terminator: string }[]; index: LineIndex | null }> {
  let index: LineIndex | null = null;
  const lines: { line: number; text: string; terminator: string }[] = [];
  for await (const l of streamLineBytes(file, { ...options, onIndex: (i) => (index = i) })) {
    lines.push({ line: l.line, text: l.bytes.toString("utf8", l.start, l.end), terminator: l.bytes.toString("hex", l.end, l.next) });
  }
  return { lines, index };
}

/** What the line index and readLineRange give for `file` (the reference). */
async function reference(file: string): Promise<{ lines: { line: number; text: string }[]; index: LineIndex }> {
  const { scannedFromByte: _full, ...index } = await buildLineIndex(file);
  const lines = index.lineCount === 0 ? [] : await readLineRange(file, index, 1, index.lineCount);
  return { lines: lines.map((l) => ({ line: l.line, text: l.text })), index };
}

const CASES: Buffer[] = [
  b('{"a":"x', [0xe2, 0x80, 0xa8], 'y"}\n{"b":1}\n'),
  b("a\rb\r"),
  b("a\r\nb\r\n\r\nc"),
  b("a\r\r\nb"),
  b("a\x0bb\x0cc\x1cd\x1de\x1ef", [0xc2, 0x85], "g", [0xe2, 0x80, 0xa9], "h"),
  b("a", [0x85], "b\n"),
  b([0xff, 0xfe], '{"x":1}\n', [0xe2, 0x80], "\n", [0xe2, 0x80, 0xe2, 0x80, 0xa8], "z\n", [0xf0, 0xc2, 0x85], "end"),
  b(""),
  b("\n\n"),
  b("\r"),
  b([0xef, 0xbb, 0xbf], '{"a":1}\n'),
  b(`${"x".repeat(50)}\n${"y".repeat(3)}\r\n${"z".repeat(40)}`),
];

describe("streamLineBytes (one pass: lines plus the line index, contract §1.6; async or sync reads)", () => {
  CASES.forEach((bytes, n) => {
    it(`case ${n}: same lines and index as buildLineIndex + readLineRange, with any chunk and headroom`, async () => {
      const file = await writeTemp(bytes);
      const ref = await reference(file);
      for (const chunkBytes of [undefined, 1, 2, 3, 5, 7, 16]) {
        for (const [headroomBytes, syncReads] of [[undefined, false], [0, false], [1, true], [4, false], [4, true]] as const) {
          const got = await streamed(file, { chunkBytes, headroomBytes, syncReads });
          const label = `chunk ${chunkBytes} headroom ${headroomBytes}${syncReads ? " sync" : ""}`;
          expect(got.lines.map(({ line, text }) => ({ line, text })), label).toEqual(ref.lines);
          expect(got.index, label).not.toBeNull();
          expect({ ...got.index!, starts: Array.from(got.index!.starts) }, label).toEqual({ ...ref.index, starts: Array.from(ref.index.starts) });
        }
      }
    });
  });

  it("reads into the caller's buffers when they are big enough, reused from one file to the next, else into its own", async () => {
    const big: [Buffer, Buffer] = [Buffer.alloc(12), Buffer.alloc(12)];
    for (const [n, bytes] of CASES.entries()) {
      const file = await writeTemp(bytes);
      const ref = await reference(file);
      for (const buffers of [big, [Buffer.alloc(1), Buffer.alloc(1)] as [Buffer, Buffer]]) {
        buffers[0].fill(0xfe);
        const got: { line: number; text: string }[] = [];
        for await (const l of streamLineBytes(file, { chunkBytes: 5, headroomBytes: 4, buffers })) got.push({ line: l.line, text: l.bytes.toString("utf8", l.start, l.end) });
        expect(got, `case ${n}`).toEqual(ref.lines);
        // The first read lands in buffers[0] after the headroom, when the pair holds headroom + chunk (capped by the size).
        const headroom = Math.min(4, bytes.length);
        const fits = buffers[0].length >= headroom + Math.min(5, Math.max(1, bytes.length));
        const wrote = headroom < buffers[0].length && buffers[0][headroom] !== 0xfe;
        if (bytes.length > 0 && bytes[0] !== 0xfe) expect(wrote, `case ${n}`).toBe(fits);
      }
    }
  });

  it("gives small passes run side by side their own pooled scan memories, and a pass after them the same lines", async () => {
    const files = await Promise.all(CASES.map((bytes) => writeTemp(bytes)));
    const refs = await Promise.all(files.map((f) => reference(f)));
    const buffers = new Set<ArrayBufferLike>();
    // Every case at once, twice over (more passes than the pool keeps): each sees only its own lines.
    const runs = [...files, ...files].map(async (file) => {
      const got: { line: number; text: string }[] = [];
      for await (const l of streamLineBytes(file, { chunkBytes: 3 })) {
        buffers.add(l.bytes.buffer);
        got.push({ line: l.line, text: l.bytes.toString("utf8", l.start, l.end) });
        await new Promise((resolve) => setImmediate(resolve));
      }
      return got;
    });
    expect(await Promise.all(runs)).toEqual([...refs, ...refs].map((r) => r.lines));
    // Read into scan memories (WebAssembly memories), so the skim scans lines where they lie.
    expect([...buffers].some((buffer) => scannerOf(buffer) !== undefined)).toBe(true);
  });

  it("hands each line's terminator bytes between end and next", async () => {
    const file = await writeTemp(b("a\r\nb", [0xe2, 0x80, 0xa8], "c\n"));
    expect((await streamed(file, { chunkBytes: 2 })).lines.map((l) => l.terminator)).toEqual(["0d0a", "e280a8", "0a"]);
  });

  it("gives no index when the caller stops early, and closes the file", async () => {
    const file = await writeTemp(b("a\nb\nc\n"));
    let index: LineIndex | null = null;
    for await (const l of streamLineBytes(file, { chunkBytes: 1, onIndex: (i) => (index = i) })) if (l.line === 2) break;
    expect(index).toBeNull();
  });

  it("streams one range of splitFileRanges with its own line numbers", async () => {
    const file = await writeTemp(b("a\r\nb", [0xe2, 0x80, 0xa8], "c\nd\n\ne\rf\ng"));
    const ref = await reference(file);
    const { splitFileRanges } = await import("@/lib/jsonl/range-pool");
    for (const parts of [2, 3, 4]) {
      const ranges = await splitFileRanges(file, ref.index, parts);
      const lines: { line: number; text: string }[] = [];
      for (const r of ranges) {
        for (const chunkBytes of [undefined, 1, 3]) {
          const got: { line: number; text: string }[] = [];
          for await (const l of streamLineBytes(file, { chunkBytes, range: { startByte: r.startByte, endByte: r.endByte, firstLine: r.firstLine } })) got.push({ line: l.line, text: l.bytes.toString("utf8", l.start, l.end) });
          expect(got, `parts ${parts} chunk ${chunkBytes}`).toEqual(ref.lines.slice(r.firstLine - 1, r.lastLine));
          if (chunkBytes === undefined) lines.push(...got);
        }
      }
      expect(lines).toEqual(ref.lines);
    }
  });

  it("throws the fs error for a missing file", async () => {
    await expect(streamed(path.join(dir, "missing.jsonl"))).rejects.toMatchObject({ code: "ENOENT" });
  });
});

const CORPUS_DIR = path.join(SHARED_DIR, "corpus");
const CORPUS_FILES = existsSync(CORPUS_DIR)
  ? readdirSync(CORPUS_DIR, { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".jsonl"))
      .sort()
      .map((name) => path.join(CORPUS_DIR, name))
  : [];

describe("streamLineBytes over the real transcript corpus", () => {
  if (!HAS_SHARED) {
    it.skip(SKIP_SHARED_MESSAGE, () => {});
    return;
  }
  for (const file of CORPUS_FILES) {
    it(path.relative(CORPUS_DIR, file), async () => {
      const ref = await reference(file);
      // Small odd chunks and headroom put boundaries and long lines across reads.
      for (const options of [{}, { chunkBytes: 4099, headroomBytes: 1000 }]) {
        const got = await streamed(file, options);
        expect(got.lines.map(({ line, text }) => ({ line, text }))).toEqual(ref.lines);
        expect(Array.from(got.index!.starts)).toEqual(Array.from(ref.index.starts));
      }
    });
  }
});
