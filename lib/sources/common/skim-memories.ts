/** Where the skim scans a line: the scan memory it was read into (its scanner and regions kept per buffer), else one scratch memory. */
import { JsonScanMemory, scannerOf, scanRegions, type JsonScanner, type ScanRegions } from "@/lib/jsonl/json-scan";

/** The scan memories one skimming thread meets; lines come from a few buffers in turn, so the last one's lookups are kept. */
export class SkimMemories {
  /** The memory of the last line's bytes and its scanner (undefined when it has none). */
  private lastMemory: ArrayBufferLike | null = null;
  private lastScanner: JsonScanner | undefined;
  private scratchMemory: JsonScanMemory | null = null;
  private regionsBuffer: ArrayBufferLike | null = null;
  /** The regions of the memory last given to {@link useRegions}. */
  regions: ScanRegions = { state: new Int32Array(4), plans: new Uint8Array(0), tape: new Int32Array(0), installed: -1 };

  /** The scanner of `memory` when it is a scan memory, else undefined (a WeakMap lookup only when the memory changed). */
  scannerIn(memory: ArrayBufferLike): JsonScanner | undefined {
    if (memory === this.lastMemory) return this.lastScanner;
    const scanner = scannerOf(memory);
    // Only a scan memory is remembered (the walk's state holds it anyway): never a caller's other buffer.
    this.lastMemory = scanner === undefined ? null : memory;
    this.lastScanner = scanner;
    return scanner;
  }

  /** The scratch memory long lines outside a scan memory are copied into (made on first use, never shrinks). */
  scratch(): JsonScanMemory {
    this.scratchMemory ??= new JsonScanMemory();
    return this.scratchMemory;
  }

  /** Points {@link regions} at `buffer`'s (a scan memory's). */
  useRegions(buffer: ArrayBufferLike): void {
    if (buffer !== this.regionsBuffer) {
      this.regions = scanRegions(buffer);
      this.regionsBuffer = buffer;
    }
  }
}
