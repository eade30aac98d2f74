/** The audit ledger's writer: appends under a lock, hash chain, segment rotation. */
import { randomBytes } from "node:crypto";
import fsSync from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { processWide } from "@/lib/cache/process-wide";
import { withFileLock } from "@/lib/fs/file-lock";
import { breakIfStale, type Owner } from "@/lib/fs/stale-lock";
import { sealEntry } from "@/lib/ledger/chain";
import { currentHeadSync, type LedgerHead, noteEntry, readHeadSync, sealSegment, writeHeadSync } from "@/lib/ledger/head";
import { LedgerIndex } from "@/lib/ledger/ledger-index";
import { type LedgerPaths, ledgerPaths, listSegmentsSync, segmentName } from "@/lib/ledger/paths";
import { type LedgerEntry, ledgerEntrySchema } from "@/lib/ledger/schema";

/** Seed 002's compaction threshold: the active file rotates once it reaches 10 MiB. */
export const DEFAULT_SEGMENT_BYTES = 10 * 1024 * 1024;

/** Tuning of one ledger. `segmentBytes`: rotate the active file once it reaches this size. */
export type LedgerOptions = { segmentBytes: number };

/**
 * One workspace's audit ledger: appends under the writers' lock, reads through the incremental
 * index without locking (seed 002 "Reads never acquire the file lock — only writes hold the
 * mutex"). Get it with {@link getLedger}; tests build their own with a small threshold.
 */
export class Ledger {
  readonly paths: LedgerPaths;
  readonly index: LedgerIndex;

  constructor(workspaceRoot: string, readonly options: LedgerOptions = { segmentBytes: DEFAULT_SEGMENT_BYTES }) {
    this.paths = ledgerPaths(workspaceRoot);
    this.index = new LedgerIndex(this.paths);
  }

  /**
   * Appends entries in one write under the lock (lib/fs/file-lock: in-process queue plus a lock
   * file whose dead or stale holder is broken, so a writer killed while holding it never blocks
   * later ones), each sealed into the hash chain (lib/ledger/chain) at the head's tip, then
   * rewrites the head atomically. An unterminated last line left by a writer that died
   * mid-append is first closed with a newline, so it stays on record as one malformed line and
   * never swallows the new entry. Past the threshold the active file is renamed to the next
   * numbered segment and its Merkle root recorded in the head.
   * @throws ZodError for an entry that does not match the schema; fs errors; AppError io_error
   *   when the lock cannot be taken.
   */
  async append(entries: LedgerEntry[]): Promise<void> {
    const parsed = entries.map((e) => ledgerEntrySchema.parse(e));
    const lockPath = `${this.paths.active}.lock`;
    const owner: Owner = { pid: process.pid, host: os.hostname(), token: randomBytes(8).toString("hex") };
    // Synchronous: lock, append, rotate and release in one turn of the event loop (async fs calls
    // cost thread-pool round trips on a loaded machine); only waiting is async.
    for (let delay = 1; !tryLockSync(this.paths, lockPath, owner); delay = Math.min(delay * 2, 50)) {
      if (await breakIfStale(lockPath, owner.token)) continue;
      await new Promise((r) => setTimeout(r, delay * (0.5 + Math.random())));
    }
    try {
      this.appendLocked(parsed);
    } finally {
      if (readOwnerSync(lockPath)?.token === owner.token) fsSync.rmSync(lockPath, { force: true });
    }
  }

  /**
   * {@link append} of the entries `decide` returns, called under the writers' lock (for
   * check-then-append such as reconciliation) with the head as it stands. No entries: nothing
   * is written.
   */
  async appendWith(decide: (head: LedgerHead) => Promise<LedgerEntry[]>): Promise<void> {
    await fs.mkdir(this.paths.tracesDir, { recursive: true });
    await withFileLock(this.paths.active, async (lock) => {
      const entries = await decide(this.headLocked());
      if (entries.length === 0) return;
      const parsed = entries.map((e) => ledgerEntrySchema.parse(e));
      await lock.assertHeld();
      this.appendLocked(parsed);
    });
  }

  /** The head as stored (null before the first chained append). Read without the lock. */
  readHead(): LedgerHead | null {
    return readHeadSync(this.paths);
  }

  /** The head brought up to what is on disk (caller holds the lock): lib/ledger/head `currentHeadSync`. */
  private headLocked(): LedgerHead {
    return currentHeadSync(this.paths);
  }

  /** Seals and appends `entries`, rotates past the threshold and writes the head. Caller holds the lock. */
  private appendLocked(entries: LedgerEntry[]): void {
    const head = this.headLocked();
    let text = "";
    for (const entry of entries) {
      const seq = head.entries;
      const { line, hash } = sealEntry(entry, { seq, hash: head.last_hash });
      text += `${line}\n`;
      noteEntry(head, { kind: "sealed", seq, prev_hash: head.last_hash, entry_hash: hash, self_ok: true, value: entry });
    }
    const size = appendSync(this.paths.active, text);
    head.active_bytes = size;
    head.updated_at = new Date().toISOString();
    writeHeadSync(this.paths, head);
    if (size >= this.options.segmentBytes) {
      const file = segmentName((listSegmentsSync(this.paths).at(-1) ?? 0) + 1);
      const target = path.join(this.paths.tracesDir, file);
      fsSync.renameSync(this.paths.active, target);
      head.segments.push(sealSegment(file, fsSync.readFileSync(target)));
      head.active_bytes = 0;
      writeHeadSync(this.paths, head);
    }
  }

  /** The index brought up to date with what was appended since the last read. */
  async read(): Promise<LedgerIndex> {
    await this.index.refresh();
    return this.index;
  }
}

/**
 * One attempt at the writers' lock (the same `<active>.lock` file and owner record as
 * lib/fs/file-lock, so either path excludes the other): the owner record is written to a temp
 * file and hard-linked into place, so the lock never exists without its owner.
 */
function tryLockSync(paths: LedgerPaths, lockPath: string, owner: Owner): boolean {
  const tmp = `${lockPath}.${process.pid}.${owner.token}.tmp`;
  try {
    fsSync.writeFileSync(tmp, JSON.stringify(owner));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    fsSync.mkdirSync(paths.tracesDir, { recursive: true });
    fsSync.writeFileSync(tmp, JSON.stringify(owner));
  }
  try {
    fsSync.linkSync(tmp, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return false;
  } finally {
    fsSync.rmSync(tmp, { force: true });
  }
}

/** Appends under the lock; a torn last line is first closed with a newline. Returns the new size. */
function appendSync(file: string, text: string): number {
  const fd = fsSync.openSync(file, "a+");
  try {
    let size = fsSync.fstatSync(fd).size;
    let prefix = "";
    if (size > 0) {
      const last = Buffer.alloc(1);
      fsSync.readSync(fd, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) prefix = "\n";
    }
    const bytes = Buffer.from(prefix + text);
    fsSync.writeSync(fd, bytes);
    size += bytes.length;
    return size;
  } finally {
    fsSync.closeSync(fd);
  }
}

function readOwnerSync(lockPath: string): Owner | null {
  try {
    return JSON.parse(fsSync.readFileSync(lockPath, "utf8")) as Owner;
  } catch {
    return null;
  }
}

/** One map for every copy of this module in the server (lib/cache/process-wide): each copy's own ledger held its own index. */
const ledgers = processWide("ledger:ledgers", () => new Map<string, Ledger>());

/**
 * The process-wide ledger of a workspace (absolute root). The threshold is
 * `$CASEFILE_LEDGER_SEGMENT_BYTES` when set to a positive integer, else 10 MiB.
 */
export function getLedger(workspaceRoot: string): Ledger {
  let ledger = ledgers.get(workspaceRoot);
  if (!ledger) {
    const fromEnv = Number(process.env.CASEFILE_LEDGER_SEGMENT_BYTES);
    ledger = new Ledger(workspaceRoot, { segmentBytes: Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_SEGMENT_BYTES });
    ledgers.set(workspaceRoot, ledger);
  }
  return ledger;
}

/** Replaces the process-wide ledger of a workspace with one using `options` (tests, benches). */
export function configureLedger(workspaceRoot: string, options: LedgerOptions): Ledger {
  const ledger = new Ledger(workspaceRoot, options);
  ledgers.set(workspaceRoot, ledger);
  return ledger;
}
