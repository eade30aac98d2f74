/** Tests of the line index: build, extension, scanLineStarts and readLineRange. */
import { appendFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildLineIndex, readLineRange } from "@/lib/jsonl/line-index";
import { scanLineStarts } from "@/lib/jsonl/stream-line-bytes";
import type { LineIndex } from "@/lib/jsonl/line-index";
import { splitPhysicalLines } from "@/lib/testing/split-lines";
import { seededRandom } from "@/lib/testing/random";

let dir: string;
let fileNo = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "line-index-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeTemp(bytes: Uint8Array | string): Promise<string> {
  const file = path.join(dir, `f${fileNo++}.jsonl`);
  await writeFile(file, bytes);
  return file;
}

async function allLines(file: string, index: LineIndex): Promise<string[]> {
  if (index.lineCount === 0) return [];
  return (await readLineRange(file, index, 1, index.lineCount)).map((l) => l.text);
}

const b = (...parts: (string | number[])[]): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p))));

// Expected arrays were produced with CPython 3.11: bytes.decode("utf-8", "replace").splitlines().
const CASES: { name: string; bytes: Buffer; lines: string[] }[] = [
  { name: "U+2028 inside a JSON string", bytes: b('{"a":"x', [0xe2, 0x80, 0xa8], 'y"}\n{"b":1}\n'), lines: ['{"a":"x', 'y"}', '{"b":1}'] },
  { name: "U+2029", bytes: b("a", [0xe2, 0x80, 0xa9], "b"), lines: ["a", "b"] },
  { name: "lone \\r", bytes: b("a\rb\r"), lines: ["a", "b"] },
  { name: "\\r\\n", bytes: b("a\r\nb\r\n\r\nc"), lines: ["a", "b", "", "c"] },
  { name: "\\r\\r\\n", bytes: b("a\r\r\nb"), lines: ["a", "", "b"] },
  { name: "\\n\\r", bytes: b("a\n\rb"), lines: ["a", "", "b"] },
  { name: "\\x0b \\x0c \\x1c \\x1d \\x1e", bytes: b("a\x0bb\x0cc\x1cd\x1de\x1ef"), lines: ["a", "b", "c", "d", "e", "f"] },
  { name: "\\x85 as C2 85", bytes: b("a", [0xc2, 0x85], "b"), lines: ["a", "b"] },
  { name: "lone 0x85 byte", bytes: b("a", [0x85], "b\n"), lines: ["a\ufffdb"] },
  {
    name: "invalid UTF-8",
    bytes: b([0xff, 0xfe], '{"x":1}\n', [0xe2, 0x80], "\n", [0xe2, 0x80, 0xe2, 0x80, 0xa8], "z\n", [0xf0, 0xc2, 0x85], "end"),
    lines: ['\ufffd\ufffd{"x":1}', "\ufffd", "\ufffd", "z", "\ufffd", "end"],
  },
  { name: "missing final newline", bytes: b('{"a":1}\n{"b":2}'), lines: ['{"a":1}', '{"b":2}'] },
  { name: "trailing newline", bytes: b('{"a":1}\n{"b":2}\n'), lines: ['{"a":1}', '{"b":2}'] },
  { name: "empty file", bytes: b(""), lines: [] },
  { name: 'only "\\n\\n"', bytes: b("\n\n"), lines: ["", ""] },
  { name: "only \\r", bytes: b("\r"), lines: [""] },
  { name: "BOM is kept", bytes: b([0xef, 0xbb, 0xbf], '{"a":1}\n'), lines: ['\ufeff{"a":1}'] },
];

describe("buildLineIndex numbering (contract §1.6, Python splitlines)", () => {
  for (const { name, bytes, lines } of CASES) {
    it(`${name}`, async () => {
      const file = await writeTemp(bytes);
      const index = await buildLineIndex(file);
      expect(index.lineCount).toBe(lines.length);
      expect(index.starts.length).toBe(lines.length);
      expect(await allLines(file, index)).toEqual(lines);
    });

    it(`${name}: identical starts with every tiny chunk size`, async () => {
      const file = await writeTemp(bytes);
      const expected = Array.from((await buildLineIndex(file)).starts);
      for (const chunkBytes of [1, 2, 3, 4, 5, 7, 11]) {
        const index = await buildLineIndex(file, undefined, { chunkBytes });
        expect(Array.from(index.starts), `chunkBytes=${chunkBytes}`).toEqual(expected);
      }
    });
  }

  it("records exact byte offsets", async () => {
    const file = await writeTemp(b("ab\r\ncd", [0xe2, 0x80, 0xa8], "e", [0xc2, 0x85], "\x0bf\r"));
    const index = await buildLineIndex(file);
    expect(Array.from(index.starts)).toEqual([0, 4, 9, 12, 13]);
    expect(index.size).toBe(15);
  });

  it("handles boundaries straddling chunks: \\r|\\n, C2|85, E2 80|A8, E2|80 A9", async () => {
    const file = await writeTemp(b("abc\r\nde", [0xc2, 0x85], "fg", [0xe2, 0x80, 0xa8], "h", [0xe2, 0x80, 0xa9], "i"));
    const expected = ["abc", "de", "fg", "h", "i"];
    for (let chunkBytes = 1; chunkBytes <= 24; chunkBytes++) {
      const index = await buildLineIndex(file, undefined, { chunkBytes });
      expect(await allLines(file, index), `chunkBytes=${chunkBytes}`).toEqual(expected);
    }
  });

  it("matches splitPhysicalLines on random byte soup at random chunk sizes", async () => {
    const alphabet = [0x41, 0x22, 0x0a, 0x0d, 0x0b, 0x0c, 0x1c, 0x1e, 0xc2, 0x85, 0xe2, 0x80, 0xa8, 0xa9, 0xff, 0xc3, 0xef, 0xbb];
    const random = seededRandom(0x5eed);
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    for (let round = 0; round < 300; round++) {
      const bytes = Buffer.from(Array.from({ length: Math.floor(random() * 40) }, () => alphabet[Math.floor(random() * alphabet.length)]!));
      const file = await writeTemp(bytes);
      const index = await buildLineIndex(file, undefined, { chunkBytes: 1 + Math.floor(random() * 8) });
      expect(await allLines(file, index), bytes.toString("hex")).toEqual(splitPhysicalLines(decoder.decode(bytes)));
    }
  });
});

describe("readLineRange", () => {
  it("returns the requested lines with content byte lengths, without terminators", async () => {
    const file = await writeTemp(b("héllo\r\n", "x", [0xe2, 0x80, 0xa8], "\n", "last"));
    const index = await buildLineIndex(file);
    expect(await readLineRange(file, index, 2, 4)).toEqual([
      { line: 2, text: "x", byteLength: 1, bytes: Buffer.from("x") },
      { line: 3, text: "", byteLength: 0, bytes: Buffer.alloc(0) },
      { line: 4, text: "last", byteLength: 4, bytes: Buffer.from("last") },
    ]);
    expect(await readLineRange(file, index, 1, 1)).toEqual([{ line: 1, text: "héllo", byteLength: 6, bytes: Buffer.from("héllo") }]);
  });

  it("throws RangeError on a bad range", async () => {
    const file = await writeTemp("a\nb\n");
    const index = await buildLineIndex(file);
    for (const [start, end] of [[0, 1], [1, 3], [2, 1], [1.5, 2], [3, 3]] as const) {
      await expect(readLineRange(file, index, start, end), `${start}-${end}`).rejects.toBeInstanceOf(RangeError);
    }
    const empty = await buildLineIndex(await writeTemp(""));
    await expect(readLineRange(file, empty, 1, 1)).rejects.toBeInstanceOf(RangeError);
  });

  it("scanLineStarts throws AppError io_error when the file is shorter than endByte", async () => {
    const file = await writeTemp("a\nb\n");
    await expect(scanLineStarts(file, 4096, { chunkBytes: 2 })).rejects.toMatchObject({ code: "io_error" });
    expect(Array.from(await scanLineStarts(file, 4, { fromByte: 2 }))).toEqual([2]);
    expect(Array.from(await scanLineStarts(file, 4, { fromByte: 2, prefix: new Float64Array([0]) }))).toEqual([0, 2]);
  });

  it("throws AppError not_found for a missing file", async () => {
    await expect(buildLineIndex(path.join(dir, "missing.jsonl"))).rejects.toMatchObject({ name: "AppError", code: "not_found" });
  });
});

describe("buildLineIndex extension", () => {
  async function extendAndCompare(initial: Buffer, appended: Buffer, chunkBytes?: number) {
    const file = await writeTemp(initial);
    const previous = await buildLineIndex(file);
    await appendFile(file, appended);
    const extended = await buildLineIndex(file, previous, { chunkBytes });
    const fresh = await buildLineIndex(file);
    expect(Array.from(extended.starts)).toEqual(Array.from(fresh.starts));
    expect({ size: extended.size, lineCount: extended.lineCount }).toEqual({ size: fresh.size, lineCount: fresh.lineCount });
    return { file, previous, extended };
  }

  it("completes a partial last line and rescans only from its start", async () => {
    const { file, previous, extended } = await extendAndCompare(b('{"a":1}\n{"b"'), b(':2}\n{"c":3}\n'));
    expect(extended.scannedFromByte).toBe(previous.starts[1]);
    expect(extended.scannedFromByte).toBe(8);
    expect(await allLines(file, extended)).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it("turns a trailing \\r into \\r\\n", async () => {
    const { file, extended } = await extendAndCompare(b("x\na\r"), b("\nb"));
    expect(extended.scannedFromByte).toBe(2);
    expect(await allLines(file, extended)).toEqual(["x", "a", "b"]);
  });

  it("completes a split U+2028 (E2 80 | A8) with tiny chunks", async () => {
    const { file, extended } = await extendAndCompare(b("x\nab", [0xe2, 0x80]), b([0xa8], "c"), 2);
    expect(extended.scannedFromByte).toBe(2);
    expect(await allLines(file, extended)).toEqual(["x", "ab", "c"]);
  });

  it("extends an empty file from 0 and leaves an unchanged file alone", async () => {
    const { file, extended } = await extendAndCompare(b(""), b("a\nb\n"));
    expect(extended.scannedFromByte).toBe(0);
    const again = await buildLineIndex(file, extended);
    expect(again.scannedFromByte).toBe(extended.size);
    expect(again.starts).toBe(extended.starts);
  });

  it("rebuilds from 0 when the file shrank", async () => {
    const file = await writeTemp("aaa\nbbb\nccc\n");
    const previous = await buildLineIndex(file);
    await writeFile(file, "aaa\nb");
    const shrunk = await buildLineIndex(file, previous);
    expect(shrunk.scannedFromByte).toBe(0);
    expect(await allLines(file, shrunk)).toEqual(["aaa", "b"]);
  });

  it("rebuilds from 0 when the file grew but its earlier bytes changed", async () => {
    const file = await writeTemp("aaa\nbbb");
    const previous = await buildLineIndex(file);
    // Line 2 started at byte 4; byte 3 is no longer a boundary, so extending would be wrong.
    await writeFile(file, "aaaaaaa\nb\n");
    const rewritten = await buildLineIndex(file, previous);
    expect(rewritten.scannedFromByte).toBe(0);
    expect(await allLines(file, rewritten)).toEqual(["aaaaaaa", "b"]);
  });
});
