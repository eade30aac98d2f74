import fs from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";

import { ensureMemory, NEEDLE_AREA_BYTES, wasmMemory } from "@/lib/forensics/simd-find";
import { terminatorBytes, type LineIndex } from "@/lib/jsonl/line-index";

/**
 * Bytes read per chunk (whole lines; a longer line is read alone). 1 MiB stays in the CPU's L2
 * cache between the read and the search, and measured faster than 8 MiB on the 1 GB bench.
 */
export const CHUNK_BYTES = 1 << 20;

/**
 * Where chunks are read: two slots (one being searched while the next is read) after the
 * needle area of one `WebAssembly.Memory`, so a SIMD search (`simd-find.ts`) works on the bytes
 * where they landed. Memory: twice the largest chunk (1 MiB, or the longest line), whatever the
 * file size. One arena serves one search at a time (a project-wide search reuses it per file).
 */
export class ChunkArena {
  /** The memory holding both slots; grows (detaching old views) only in {@link reserve}. */
  readonly memory: WebAssembly.Memory;
  private slotBytes = 0;

  constructor(slotBytes = CHUNK_BYTES) {
    this.memory = wasmMemory(2 * slotBytes);
    this.reserve(slotBytes);
  }

  /** Bytes one slot holds. */
  get capacity(): number {
    return this.slotBytes;
  }

  /** Makes each slot hold at least `bytes`. Call only while no read into the arena is in flight. */
  reserve(bytes: number): void {
    if (bytes <= this.slotBytes) return;
    this.slotBytes = Math.ceil(bytes / 65536) * 65536;
    ensureMemory(this.memory, NEEDLE_AREA_BYTES + 2 * this.slotBytes);
  }

  /** A Buffer view of the first `length` bytes of slot 0 or 1 (`byteOffset` = its wasm address). */
  slot(slot: 0 | 1, length: number): Buffer {
    return Buffer.from(this.memory.buffer, NEEDLE_AREA_BYTES + slot * this.slotBytes, length);
  }
}

/**
 * Calls `onChunk(buf, base, first, last)` for consecutive whole-line chunks of `filePath`:
 * `buf` holds the bytes of lines `first..last` (0-based line indexes) starting at file offset
 * `base`, at most {@link CHUNK_BYTES} unless one line is longer. The next chunk is read while
 * `onChunk` runs (double buffering in `arena`, a fresh one by default). `buf` is only valid
 * during the call: `onChunk` must copy (or decode) what it keeps and must not grow the arena.
 * Memory: two chunks.
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
  /** Lines `first..last`: as many as end within CHUNK_BYTES of the first's start (at least one). */
  const plan = (first: number) => {
    const from = starts[first]!;
    let a = first;
    let b = lineCount - 1;
    while (a < b) {
      const mid = Math.floor((a + b + 1) / 2);
      if (lineEnd(mid) - from <= CHUNK_BYTES) a = mid;
      else b = mid - 1;
    }
    return { first, last: a, from, length: lineEnd(a) - from };
  };
  const handle = await fs.open(filePath, "r");
  let reading: Promise<number> | null = null;
  try {
    let chunk = plan(0);
    let slot: 0 | 1 = 0;
    arena.reserve(chunk.length);
    reading = readFully(handle, arena.slot(slot, chunk.length), chunk.from);
    for (;;) {
      const got = await reading;
      reading = null;
      const next = chunk.last + 1 < lineCount ? plan(chunk.last + 1) : null;
      const nextSlot: 0 | 1 = slot === 0 ? 1 : 0;
      // A chunk longer than a slot is read after this one is searched (the memory must grow).
      if (next && next.length <= arena.capacity) reading = readFully(handle, arena.slot(nextSlot, next.length), next.from);
      onChunk(arena.slot(slot, got), chunk.from, chunk.first, chunk.last);
      if (!next) break;
      if (!reading) {
        arena.reserve(next.length);
        reading = readFully(handle, arena.slot(nextSlot, next.length), next.from);
      }
      chunk = next;
      slot = nextSlot;
    }
  } finally {
    // Never leave a read in flight into memory the caller may reuse, nor on a closed handle.
    await reading?.catch(() => undefined);
    await handle.close();
  }
}

/** Reads into all of `buf` from file offset `from`; returns the bytes read (fewer at end of file). */
async function readFully(handle: FileHandle, buf: Buffer, from: number): Promise<number> {
  let got = 0;
  while (got < buf.length) {
    const { bytesRead } = await handle.read(buf, got, buf.length - got, from + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got;
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
