/** Compact records persisted in blocks beside the line index (`.casefile/index`), per file version. */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

import { fileStamp } from "@/lib/fs/file-stamp";
import { listDir } from "@/lib/fs/list-dir";
import type { Logger } from "@/lib/context";
import { writeFileAtomic } from "@/lib/fs/atomic-write";
import { readDerivedJson } from "@/lib/fs/set-aside";
import { jsonText } from "@/lib/json/shared-values";
import type { LineIndex } from "@/lib/jsonl/line-index";
import type { CompactRecord } from "@/lib/session-reader/schema";

/**
 * Store directories and file versions (`<dir>/<prefix>`) whose older blocks this process removed
 * already: a version's later blocks need no listing of the directory (up to ~640 names for a
 * gigabyte session) on every cold block. Another process writing an older version meanwhile only
 * leaves a stale block, which no reader of the new version ever opens.
 */
const cleaned = new Set<string>();

/**
 * Lines per persisted block of compact records. A window builds every block it touches whole, so
 * a block is small beside a window: a fresh 2,000-line window builds at most 2,100 lines, where
 * 500-line blocks built up to 2,500 (issue 36: a quarter of a fresh window's time on the gigabyte
 * session went to lines it did not return). A block is ~40 KB of JSON, one small file.
 */
export const COMPACT_BLOCK_LINES = 100;

/** Bumped whenever the compact record builder or the block size changes, so persisted blocks are never stale. */
export const COMPACT_STORE_VERSION = 4;

/**
 * Persisted compact records: the compact records of a session file, built once per
 * block of {@link COMPACT_BLOCK_LINES} lines and stored beside the line index, so a window read
 * costs the records it returns, not the bytes of the lines behind them.
 *
 * Layout: `<indexDir>/<sha256 of the absolute path>.compact/<version>-<size>-<mtimeMs>-<source>-b<block>.json`,
 * each a JSON array of the block's records exactly as the builder made them (so a window sliced
 * from blocks serializes byte-identically to a freshly built one). A file whose size or mtime
 * changed gets new names; blocks of older versions are removed when a new one is written.
 * Every write is atomic and best effort (a read-only or full disk only costs the rebuild), and
 * not fsynced: a block is a cache its reader checks (JSON array, line count, first line), so a
 * crash costs at most a rebuild, as for the line index and turn usage caches.
 */
export class CompactStore {
  private readonly dir: string;
  private readonly prefix: string;

  /**
   * @param indexDir the workspace's line-index directory (`.casefile/index`).
   * @param filePath absolute path of the session (or subagent) file.
   * @param index the file's current line index (its size and mtime version the blocks).
   * @param source the index row's source (`claude-code`, `codex`, …): records depend on it.
   * @param log where a corrupt block set aside is said (issue 35); none: it is only rebuilt.
   */
  constructor(indexDir: string, filePath: string, index: LineIndex, source: string, private readonly log?: Logger) {
    this.dir = path.join(indexDir, `${createHash("sha256").update(filePath).digest("hex")}.compact`);
    // A file name: the stamp's `:` (no file name may hold one on Windows) reads `-`, as the blocks already stored are named.
    this.prefix = `${COMPACT_STORE_VERSION}-${fileStamp(index).replace(":", "-")}-${source.replace(/[^\w-]/g, "_")}-`;
  }

  /** Removes every session's persisted blocks under `indexDir` (benchmarks measuring a first read); never throws. */
  static async removeAll(indexDir: string): Promise<void> {
    for (const name of await listDir(indexDir)) if (name.endsWith(".compact")) await fs.rm(path.join(indexDir, name), { recursive: true, force: true });
  }

  /** Block number (0-based) holding 1-based `line`. */
  static blockOf(line: number): number {
    return Math.floor((line - 1) / COMPACT_BLOCK_LINES);
  }

  /** First and last 1-based line of `block`, clamped to `lineCount`. */
  static blockLines(block: number, lineCount: number): { start: number; end: number } {
    return { start: block * COMPACT_BLOCK_LINES + 1, end: Math.min(lineCount, (block + 1) * COMPACT_BLOCK_LINES) };
  }

  /** The persisted records of `block`, or null when missing or unreadable (never throws); a corrupt block is set aside ({@link readDerivedJson}). */
  async read(block: number): Promise<CompactRecord[] | null> {
    return (await readDerivedJson(this.file(block), this.log, Array.isArray)) as CompactRecord[] | null;
  }

  /**
   * Persists the records of `block` (atomic, best effort) and, on this process's first write of
   * this file version, drops blocks of older versions. The text is `JSON.stringify(records)`,
   * joined from the records' remembered texts when they are shared values (lib/json/shared-values):
   * the response serializes them anyway, so a cold window serializes each record once, not twice.
   * Written through the thread pool: a window builds its next block while this one is written.
   */
  async write(block: number, records: readonly CompactRecord[]): Promise<void> {
    try {
      // writeFileAtomic makes the directory when it writes through the pool.
      await writeFileAtomic(this.file(block), jsonText(records) ?? "[]", { durable: false, inPool: true });
      if (cleaned.has(this.dir + path.sep + this.prefix)) return;
      for (const name of await listDir(this.dir)) {
        if (!name.startsWith(this.prefix) && name.endsWith(".json")) await fs.rm(path.join(this.dir, name), { force: true });
      }
      cleaned.add(this.dir + path.sep + this.prefix);
    } catch {
      /* NOTE: best effort: the store is only an optimisation */
    }
  }

  private file(block: number): string {
    return path.join(this.dir, `${this.prefix}b${block}.json`);
  }
}
