/** What the last sync learnt about each source file, to skip unchanged ones. */
import { statSync, type Stats } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

import type { Logger } from "@/lib/context";
import { writeFileAtomic } from "@/lib/fs/atomic-write";
import { fileStamp } from "@/lib/fs/file-stamp";
import { isJsonRecord, readDerivedJson } from "@/lib/fs/set-aside";
import { derivedPath } from "@/lib/fs/workspace-layout";
import type { PlanMemo } from "@/lib/workspace/prepare-plan";

type Kind = Parameters<PlanMemo["remember"]>[0];
type Entry = { stamp: string; values: Partial<Record<Kind, unknown>> };
type MemoFile = { version: typeof VERSION; window: string; demo?: boolean; fingerprint?: string; summary?: unknown; entries: Record<string, Entry> };

// 2: Codex analyses carry `forkCandidate` instead of their fork history (kind "fork", issue 13).
const VERSION = 2;

/** The one file this module owns: `<workspace>/.casefile/sync/memo.json`. */
export function memoFile(workspaceRoot: string): string {
  return derivedPath(workspaceRoot, "sync", "memo.json");
}

/**
 * The incremental sync's memory of per-source-file work (issue 12, item 1): a file's probe,
 * analysis and hash are recomputed only when its size, mtime or inode changed since they were
 * recorded, so a sync of unchanged sources reads no transcript. The stamp is taken before the
 * file is read: a file that grows while it is read is read again next time. `read` lists the
 * files read during this run (what the tests count); entries of files no longer seen are dropped
 * on {@link SyncMemo.save}. Everything is keyed by the report window too: another window
 * invalidates all of it.
 */
export class SyncMemo implements PlanMemo {
  /** Absolute paths of the source files whose content this run read. */
  readonly read = new Set<string>();
  /** How many remembered values were reused. */
  reused = 0;
  /** Whether the last sync ran on the demo transcripts (a real sync after it rebuilds, so the demo is never mixed in). */
  lastDemo = false;
  /** Whether this sync runs on the demo transcripts; saved with the memo. */
  demo = false;
  /** The stat fingerprint of sources and workspace after the last sync, and that sync's summary (the fast path of an unchanged start). */
  fingerprint: string | null = null;
  summary: unknown = null;
  private readonly next = new Map<string, Entry>();

  private constructor(
    private readonly root: string,
    private readonly window: string,
    private readonly prior: Map<string, Entry>,
    private readonly log?: Logger,
  ) {}

  /**
   * Loads the memo of `workspaceRoot` for `window` (a key such as `all` or `2026-05-12 UTC`); a
   * missing, unreadable or other-window memo starts empty, and a corrupt one is set aside with a
   * warning through `log` (issue 35).
   */
  static async load(workspaceRoot: string, window: string, log?: Logger): Promise<SyncMemo> {
    let prior = new Map<string, Entry>();
    let lastDemo = false;
    let fingerprint: string | null = null;
    let summary: unknown = null;
    // No memo yet: everything is read once.
    const file = (await readDerivedJson(memoFile(workspaceRoot), log, (v) => isJsonRecord(v) && (v.version !== VERSION || isJsonRecord(v.entries)))) as MemoFile | null;
    if (file) {
      lastDemo = file.demo === true;
      if (file.version === VERSION && file.window === window) {
        prior = new Map(Object.entries(file.entries));
        fingerprint = file.fingerprint ?? null;
        summary = file.summary ?? null;
      }
    }
    const memo = new SyncMemo(workspaceRoot, window, prior, log);
    memo.lastDemo = lastDemo;
    memo.fingerprint = fingerprint;
    memo.summary = summary;
    return memo;
  }

  async remember<T>(kind: Kind, file: string, compute: () => Promise<T>): Promise<T> {
    // A synchronous stat: a sync looks up every source file, and a thread-pool round trip per
    // file costs far more wall time on a loaded machine than the stat itself.
    let st: Stats | undefined;
    try {
      st = statSync(file, { throwIfNoEntry: false });
    } catch {
      st = undefined;
    }
    if (!st) return compute(); // gone or unreadable: let the reader report it
    const stamp = fileStamp(st, { inode: true });
    let entry = this.next.get(file);
    if (!entry || entry.stamp !== stamp) {
      const old = this.prior.get(file);
      entry = old && old.stamp === stamp ? { stamp, values: { ...old.values } } : { stamp, values: {} };
      this.next.set(file, entry);
    }
    if (kind in entry.values) {
      this.reused += 1;
      return entry.values[kind] as T;
    }
    this.read.add(file);
    const value = await compute();
    entry.values[kind] = value;
    return value;
  }

  /**
   * {@link remember} for work whose version the caller knows (`stamp`; an agent session's
   * discovery stamp, several sessions a file): recomputed when the stamp recorded under `key` differs.
   */
  async rememberStamped<T>(key: string, stamp: string, compute: () => Promise<T>): Promise<T> {
    let entry = this.next.get(key);
    if (!entry || entry.stamp !== stamp) {
      const old = this.prior.get(key);
      entry = old && old.stamp === stamp ? { stamp, values: { ...old.values } } : { stamp, values: {} };
      this.next.set(key, entry);
    }
    if ("analysis" in entry.values) {
      this.reused += 1;
      return entry.values.analysis as T;
    }
    this.read.add(key);
    const value = await compute();
    entry.values.analysis = value;
    return value;
  }

  /** True when nothing was looked up this run (the fast path): the prior entries are kept as they are. */
  private get untouched(): boolean {
    return this.next.size === 0 && this.read.size === 0;
  }

  /**
   * Writes what this run saw (atomically); files not seen this run are forgotten. A memo that
   * cannot be written (a read-only `.casefile/`) costs the next sync its reads, not this one: it
   * is warned about through the load's `log`, never thrown (issue 35).
   */
  async save(): Promise<void> {
    const entries = this.untouched ? this.prior : this.next;
    const file: MemoFile = { version: VERSION, window: this.window, demo: this.demo, fingerprint: this.fingerprint ?? undefined, summary: this.summary ?? undefined, entries: Object.fromEntries(entries) };
    try {
      await fs.mkdir(path.dirname(memoFile(this.root)), { recursive: true });
      await writeFileAtomic(memoFile(this.root), JSON.stringify(file));
    } catch (error) {
      this.log?.warn(`[casefile] the sync memo ${memoFile(this.root)} cannot be written (${(error as NodeJS.ErrnoException).code ?? String(error)}): the next sync reads every source file again`);
    }
  }
}
