/** The live change feed: what moved in the workspace and the audit ledger since the last tick. */
import fs from "node:fs/promises";

import { processWide } from "@/lib/cache/process-wide";
import { fileStamp } from "@/lib/fs/file-stamp";
import { workspaceStamp } from "@/lib/fs/workspace-layout";
import { ledgerPaths, listSegments } from "@/lib/ledger/paths";

/**
 * What moved since the last tick (issue 4, "Live"): `workspace` — cards, envelopes, indexes,
 * metadata; `audit` — the audit ledger (issue 8). They are separate so the dashboard's own
 * recorded reads, which append to the ledger, never make the workspace pages refetch themselves.
 */
export type WorkspaceChange = { version: number; at: string; scope: "workspace" | "audit" };

type Listener = (change: WorkspaceChange) => void;

/** How often the workspace is looked at while anyone listens, in ms. */
export const CHANGE_POLL_MS = 400;

/** Every how many ticks the card-by-card sweep runs (in-place card edits are seen within this many ticks). */
export const FULL_SWEEP_EVERY = 10;

/**
 * Watches one workspace for writes by any process (an MCP server, the CLI, the dashboard) and
 * tells its listeners. Each tick stats metadata.json and per project project.json,
 * sessions.index.jsonl, project-synthesis.json and the evidence folder: every atomic write
 * (Casefile's own, any tool's temp-and-rename) moves the folder's mtime, so a tick costs a few
 * stats per project, not one per card (issue 25). Every {@link FULL_SWEEP_EVERY}th tick, and after
 * a tick saw a change, every card is statted too (size, mtime, inode), which catches an editor
 * writing a card in place (4 s at most). NOTE: stat sweeps rather than fs.watch: inotify misses
 * renames into directories created later and does not cross filesystems. It runs only while
 * someone listens, so an idle dashboard costs nothing.
 */
export class WorkspaceChangeFeed {
  private readonly listeners = new Set<Listener>();
  private timer: NodeJS.Timeout | null = null;
  private stamp: string | null = null;
  private fullStamp: string | null = null;
  private ticks = 0;
  private auditStamp: string | null = null;
  private version = 0;
  private inFlight: Promise<void> | null = null;

  constructor(
    private readonly root: string,
    private readonly intervalMs = CHANGE_POLL_MS,
    private readonly fullSweepEvery = FULL_SWEEP_EVERY,
  ) {}

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    if (!this.timer) {
      this.timer = setInterval(() => void this.tick(), this.intervalMs);
      this.timer.unref?.();
      void this.tick();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
        this.stamp = null;
        this.fullStamp = null;
        this.auditStamp = null;
      }
    };
  }

  /** Sweeps once (or joins the sweep in flight) and notifies listeners when anything changed. */
  tick(): Promise<void> {
    this.inFlight ??= this.sweep().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async sweep(): Promise<void> {
    const [stamp, auditStamp] = await Promise.all([workspaceStamp(this.root, "folders"), ledgerStamp(this.root)]);
    const folderMoved = this.stamp !== null && stamp !== this.stamp;
    // The card-by-card stamp: at start, every Nth tick, and after a folder moved (so the change is not reported twice).
    const full = this.fullStamp === null || folderMoved || this.ticks % this.fullSweepEvery === 0;
    this.ticks += 1;
    const fullStamp = full ? workspaceStamp(this.root, "content") : this.fullStamp;
    const changed = folderMoved || (this.fullStamp !== null && fullStamp !== this.fullStamp);
    const auditChanged = this.auditStamp !== null && auditStamp !== this.auditStamp;
    this.stamp = stamp;
    this.fullStamp = fullStamp;
    this.auditStamp = auditStamp;
    if (changed) this.notify("workspace");
    if (auditChanged) this.notify("audit");
  }

  /**
   * Tells the listeners the workspace's derived state moved without a file the sweep watches
   * moving (the catalog finished a refresh the pages read): they refetch as after a write.
   */
  announce(): void {
    if (this.listeners.size > 0) this.notify("workspace");
  }

  private notify(scope: WorkspaceChange["scope"]): void {
    this.version += 1;
    const change = { version: this.version, at: new Date().toISOString(), scope };
    for (const listener of this.listeners) listener(change);
  }
}

/** The ledger's active file and segment count: every append changes the first, rotation the second. */
async function ledgerStamp(root: string): Promise<string> {
  const paths = ledgerPaths(root);
  return `${await statPart(paths.active)}|${(await listSegments(paths)).length}`;
}

async function statPart(file: string): Promise<string> {
  try {
    return fileStamp(await fs.stat(file), { inode: true });
  } catch {
    return "-";
  }
}

// One per process (lib/cache/process-wide): the watcher (instrumentation) and the routes are separate bundles.
const feeds = processWide("ledger:change-feeds", () => new Map<string, WorkspaceChangeFeed>());

/** The process-wide feed of one workspace root. */
export function getChangeFeed(root: string): WorkspaceChangeFeed {
  let feed = feeds.get(root);
  if (!feed) {
    feed = new WorkspaceChangeFeed(root);
    feeds.set(root, feed);
  }
  return feed;
}
