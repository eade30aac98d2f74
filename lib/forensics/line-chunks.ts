/** The ranged line reader: whole lines read in chunks of about 1 MiB by their line starts (grep, the scan and its ranges in workers). */
import { closeSync, openSync, readSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";

import { ensureMemory, NEEDLE_AREA_BYTES, wasmMemory } from "@/lib/forensics/simd-find";
import type { LineIndex } from "@/lib/jsonl/line-index";

/**
 * Bytes read per chunk (whole lines; a longer line is read alone). 1 MiB stays in the CPU's L2
 * cache between the read and the search, and measured faster than 256 KiB and as fast as 4 MiB.
 */
export const CHUNK_BYTES = 1 << 20;

/** Bytes read, or ms spent (a slow `onChunk`, like a parse), before a turn goes back to the event loop. */
const YIELD_EVERY_BYTES = 8 << 20;
const YIELD_EVERY_MS = 10;

/**
 * Where chunks are read: slot 0 (and slot 1 for read-ahead) after the needle area of a
 * `WebAssembly.Memory`, so a SIMD search (`simd-find.ts`) works on the bytes where they landed
 * (and a read lands there with ~3× less kernel time than into a large Node Buffer). Memory: the
 * largest chunk (1 MiB, or the longest line) per slot, whatever the file size. One arena serves
 * one pass at a time (a project-wide search reuses it for every file).
 */
export class ChunkArena {
  /** The memory holding the slots; grows (detaching old views) only in {@link reserve}. */
  readonly memory: WebAssembly.Memory;
  private slotBytes = 0;
  private slots = 1;

  constructor(slotBytes = CHUNK_BYTES) {
    this.memory = wasmMemory(slotBytes);
    this.reserve(slotBytes);
  }

  /** Bytes one slot holds. */
  get capacity(): number {
    return this.slotBytes;
  }

  /** Makes `slots` slots (1 or 2) hold at least `bytes` each. Never while a read into the arena is in flight. */
  reserve(bytes: number, slots: 1 | 2 = 1): void {
    if (bytes <= this.slotBytes && slots <= this.slots) return;
    this.slotBytes = Math.max(this.slotBytes, Math.ceil(bytes / 65536) * 65536);
    this.slots = Math.max(this.slots, slots);
    ensureMemory(this.memory, NEEDLE_AREA_BYTES + this.slots * this.slotBytes);
  }

  /** A Buffer view of the first `length` bytes of slot 0 or 1 (its `byteOffset` is its wasm address). */
  slot(length: number, slot: 0 | 1 = 0): Buffer {
    return Buffer.from(this.memory.buffer, NEEDLE_AREA_BYTES + slot * this.slotBytes, length);
  }
}

/**
 * What a chunk callback gets: `buf` holds the bytes of lines `first..last` (0-based line indexes)
 * starting at file offset `base`. It may return a line index in `first+1..last`: it stopped before
 * that line (to give the event loop a turn); the next chunk starts there, after a yield.
 */
export type LineChunkCallback = (buf: Buffer, base: number, first: number, last: number) => number | void;

/** Where a file's lines start (a line index, or the part of one a worker is sent): `starts[i]` is line i's byte offset. */
export type LineStarts = { starts: Float64Array; size: number };

/**
 * Calls `onChunk` ({@link LineChunkCallback}) for consecutive whole-line chunks of `filePath`, at
 * most {@link CHUNK_BYTES} unless one line is longer. `buf` lives in `arena` (a fresh one by
 * default) and is reused for the next chunk: `onChunk` must copy (or decode) what it keeps.
 * Memory: one chunk.
 * @throws the fs error when the file cannot be read.
 */
export async function forEachLineChunk(
  filePath: string,
  index: LineIndex,
  onChunk: LineChunkCallback,
  arena: ChunkArena = new ChunkArena(Math.min(CHUNK_BYTES, Math.max(1, index.size))),
): Promise<void> {
  if (index.lineCount === 0) return;
  await forEachRangeChunk(filePath, index, 0, index.lineCount - 1, (length) => {
    arena.reserve(length);
    return arena.slot(length);
  }, onChunk);
}

/**
 * Calls `onChunk` ({@link LineChunkCallback}) for consecutive whole-line chunks of lines
 * `first..last` (0-based indexes into `lines.starts`, whose length is the line count) of
 * `filePath`, each read into `bufferFor(length)` (exactly `length` bytes; reused by the caller as
 * it likes). Reads are `readSync` (cheaper than async reads here, and a sync open and close cost
 * less than a FileHandle's when a pass reads ~120 ranges of a file; docs/performance.md), with a
 * turn for the event loop every 8 MiB or 10 ms.
 * @throws the fs error when the file cannot be read.
 */
export async function forEachRangeChunk(
  filePath: string,
  lines: LineStarts,
  first: number,
  last: number,
  bufferFor: (length: number) => Buffer,
  onChunk: LineChunkCallback,
): Promise<void> {
  const fd = openSync(filePath, "r");
  try {
    let sinceYield = 0;
    let lastYield = performance.now();
    while (first <= last) {
      const chunk = planChunk(lines, first, last);
      const buf = bufferFor(chunk.length);
      let got = 0;
      while (got < chunk.length) {
        const bytesRead = readSync(fd, buf, got, chunk.length - got, chunk.from + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      const resume = onChunk(got < chunk.length ? buf.subarray(0, got) : buf, chunk.from, first, chunk.last);
      // A callback that stopped early (its time slice ran out) names the line to go on from.
      first = typeof resume === "number" && resume > first && resume <= chunk.last ? resume : chunk.last + 1;
      sinceYield += got;
      if (first <= last && (typeof resume === "number" || sinceYield >= YIELD_EVERY_BYTES || performance.now() - lastYield >= YIELD_EVERY_MS)) {
        await yieldToEventLoop();
        sinceYield = 0;
        lastYield = performance.now();
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** Lines `first..` up to `last`: as many as end within {@link CHUNK_BYTES} of the first's start (at least one). */
function planChunk({ starts, size }: LineStarts, first: number, last: number): { first: number; last: number; from: number; length: number } {
  const lineCount = starts.length;
  const lineEnd = (i: number): number => (i + 1 < lineCount ? starts[i + 1]! : size);
  const from = starts[first]!;
  let a = first;
  let b = last;
  while (a < b) {
    const mid = Math.floor((a + b + 1) / 2);
    if (lineEnd(mid) - from <= CHUNK_BYTES) a = mid;
    else b = mid - 1;
  }
  return { first, last: a, from, length: lineEnd(a) - from };
}
