import { readSync } from "node:fs";
import fs from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";

import { ensureMemory, NEEDLE_AREA_BYTES, wasmMemory } from "@/lib/forensics/simd-find";
import { terminatorBytes, type LineIndex } from "@/lib/jsonl/line-index";

/**
 * Bytes read per chunk (whole lines; a longer line is read alone). 1 MiB stays in the CPU's L2
 * cache between the read and the search, and measured faster than 256 KiB and as fast as 4 MiB.
 */
export const CHUNK_BYTES = 1 << 20;

/** Bytes read, or ms spent (a slow `onChunk`, like a parse), before a turn goes back to the event loop. */
const YIELD_EVERY_BYTES = 8 << 20;
const YIELD_EVERY_MS = 10;

/**
 * Where chunks are read: one slot after the needle area of a `WebAssembly.Memory`, so a SIMD
 * search (`simd-find.ts`) works on the bytes where they landed. Memory: the largest chunk
 * (1 MiB, or the longest line), whatever the file size. One arena serves one search at a time
 * (a project-wide search reuses it for every file).
 */
export class ChunkArena {
  /** The memory holding the slot; grows (detaching old views) only in {@link reserve}. */
  readonly memory: WebAssembly.Memory;
  private slotBytes = 0;

  constructor(slotBytes = CHUNK_BYTES) {
    this.memory = wasmMemory(slotBytes);
    this.reserve(slotBytes);
  }

  /** Makes the slot hold at least `bytes`. */
  reserve(bytes: number): void {
    if (bytes <= this.slotBytes) return;
    this.slotBytes = Math.ceil(bytes / 65536) * 65536;
    ensureMemory(this.memory, NEEDLE_AREA_BYTES + this.slotBytes);
  }

  /** A Buffer view of the slot's first `length` bytes (its `byteOffset` is its wasm address). */
  slot(length: number): Buffer {
    return Buffer.from(this.memory.buffer, NEEDLE_AREA_BYTES, length);
  }
}

/**
 * Calls `onChunk(buf, base, first, last)` for consecutive whole-line chunks of `filePath`:
 * `buf` holds the bytes of lines `first..last` (0-based line indexes) starting at file offset
 * `base`, at most {@link CHUNK_BYTES} unless one line is longer. `buf` lives in `arena` (a fresh
 * one by default) and is reused for the next chunk: `onChunk` must copy (or decode) what it
 * keeps. Memory: one chunk.
 *
 * NOTE: chunks are read with `readSync`, giving the event loop a turn every 8 MiB or 10 ms. Measured on
 * the 959 MB bench session (2 shared cores): async reads cost ~40 µs of thread hand-off per call
 * and land the bytes in another core's cache, 1.8× the CPU (608 vs 337 ms) and 1.6× the wall
 * time of a grep; a sync 1 MiB read blocks for ~0.2 ms.
 * @throws the fs error when the file cannot be read.
 */
export async function forEachLineChunk(
  filePath: string,
  index: LineIndex,
  onChunk: (buf: Buffer, base: number, first: number, last: number) => void,
  arena: ChunkArena = new ChunkArena(Math.min(CHUNK_BYTES, Math.max(1, index.size))),
): Promise<void> {
  const { starts, lineCount, size } = index;
  if (lineCount === 0) return;
  const lineEnd = (i: number): number => (i + 1 < lineCount ? starts[i + 1]! : size);
  const handle = await fs.open(filePath, "r");
  try {
    let sinceYield = 0;
    let lastYield = performance.now();
    for (let first = 0; first < lineCount; ) {
      const from = starts[first]!;
      // The last line that still ends within CHUNK_BYTES of `from` (at least `first`).
      let a = first;
      let b = lineCount - 1;
      while (a < b) {
        const mid = Math.floor((a + b + 1) / 2);
        if (lineEnd(mid) - from <= CHUNK_BYTES) a = mid;
        else b = mid - 1;
      }
      const length = lineEnd(a) - from;
      arena.reserve(length);
      const buf = arena.slot(length);
      let got = 0;
      while (got < length) {
        const bytesRead = readSync(handle.fd, buf, got, length - got, from + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      onChunk(got < length ? buf.subarray(0, got) : buf, from, first, a);
      first = a + 1;
      sinceYield += got;
      if (first < lineCount && (sinceYield >= YIELD_EVERY_BYTES || performance.now() - lastYield >= YIELD_EVERY_MS)) {
        await yieldToEventLoop();
        sinceYield = 0;
        lastYield = performance.now();
      }
    }
  } finally {
    await handle.close();
  }
}

/**
 * Every physical line of `filePath` decoded (UTF-8 with replacement, terminator removed), in
 * order, as `(lineNumber, text)`: the line index's numbering (contract §1.6), read in chunks.
 */
export async function forEachLine(filePath: string, index: LineIndex, onLine: (lineNumber: number, text: string) => void): Promise<void> {
  const { starts, lineCount, size } = index;
  await forEachLineChunk(filePath, index, (buf, base, first, last) => {
    for (let i = first; i <= last; i++) {
      const start = starts[i]! - base;
      const end = Math.min(buf.length, (i + 1 < lineCount ? starts[i + 1]! : size) - base);
      onLine(i + 1, buf.toString("utf8", start, end - terminatorBytes(buf, start, end)));
    }
  });
}
