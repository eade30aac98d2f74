// A prepared session's token usage and cost: its transcripts handed to lib/usage, the one place tokens are counted.
import { createHash } from "node:crypto";

import { processWide } from "@/lib/cache/process-wide";
import type { Logger } from "@/lib/context";
import { writeFileAtomic } from "@/lib/fs/atomic-write";
import { fileStampOf } from "@/lib/fs/file-stamp";
import { isJsonRecord, readDerivedJson, setAsideDerived } from "@/lib/fs/set-aside";
import { derivedPath } from "@/lib/fs/workspace-layout";
import { readUsage, usageFromJson, usageToJson, type SessionUsage, type UsageFile, type UsageStore, type UsageTally } from "@/lib/usage/session-usage";
import { sessionFiles, type ResolvedSession } from "@/lib/workspace/sessions";
import { pricingOverrideFile } from "@/lib/workspace/sources";

/**
 * The usage of one prepared session (main transcript and subagents; see lib/usage's
 * `SessionUsage`), priced with the bundled snapshot and the workspace's override file. Cached per
 * process while the files and the override file are unchanged, and, for transcripts of at least
 * {@link STORED_MIN_BYTES}, under the workspace's `.casefile/usage/<sha256 of the session
 * key>.session.json`, so a restarted server does not read a gigabyte transcript again for it.
 * @throws the fs error when a transcript cannot be read; AppError parse_error for a bad override file.
 */
export async function readSessionUsage(ctx: { workspaceRoot: string; log?: Logger }, session: ResolvedSession): Promise<SessionUsage> {
  const key = `${session.project.dir}\u0000${session.row.session_ref}`;
  // The main transcript and its subagents (persisted tool results carry no usage).
  const listed = await sessionFiles(session, { toolResults: false });
  const files: UsageFile[] = listed.flatMap((f) => (f.kind === "tool_result" ? [] : [{ kind: f.kind, path: f.path }]));
  const bytes = listed.reduce((n, f) => n + f.size_bytes, 0);
  const store = bytes >= STORED_MIN_BYTES ? usageStore(derivedPath(ctx.workspaceRoot, "usage", `${createHash("sha256").update(key).digest("hex")}.session.json`), ctx.log) : undefined;
  return readUsage(key, session.row.source, files, pricingOverrideFile(ctx.workspaceRoot), store);
}

/**
 * Sessions whose transcripts total fewer bytes are not stored: counting one again costs a few
 * milliseconds, where a catalog refresh of thousands of small sessions spent a third of its usage
 * time writing their files (issue 25).
 */
const STORED_MIN_BYTES = 4 << 20;

/** A {@link UsageStore} in one JSON file `{stamp, usage}` (a cache its reader checks: no fsync); a corrupt one is set aside with a warning through `log` (issue 35). */
function usageStore(file: string, log?: Logger): UsageStore {
  return {
    async load(stamp) {
      const stored = (await readDerivedJson(file, log, isJsonRecord)) as { stamp?: unknown; usage?: unknown } | null;
      if (stored?.stamp !== stamp) return null;
      try {
        return usageFromJson(stored.usage);
      } catch {
        if (log) setAsideDerived(file, "corrupt", "holds no valid usage (corrupt)", log);
        return null;
      }
    },
    save: (stamp, usage) => writeFileAtomic(file, JSON.stringify({ stamp, usage: usageToJson(usage) }), { durable: false }),
  };
}

type Pending = { stamp: string; done: boolean; failed: boolean };
// One per process (lib/cache/process-wide), like the usage cache it fills: Next's bundle layers share it.
const pending = processWide("workspace:usage-pending", () => new Map<string, Pending>());

/**
 * The session's usage if it can be had without waiting on a big transcript: counted at once
 * when the session's transcripts total at most `waitBytes` (or `ctx.oneShot`: a CLI call cannot
 * ask again), else started in the background and null until it has finished (a list then shows
 * the usage as pending, as it does a big session's risk; issue 13: a list never waits on a
 * gigabyte pass).
 * @throws as {@link readSessionUsage} for a session it waits on.
 */
export async function sessionUsageIfReady(ctx: { workspaceRoot: string; oneShot?: boolean }, session: ResolvedSession, waitBytes: number): Promise<SessionUsage | null> {
  const files = await sessionFiles(session, { toolResults: false });
  const bytes = files.reduce((n, f) => n + f.size_bytes, 0);
  if (ctx.oneShot || bytes <= waitBytes) return readSessionUsage(ctx, session);
  const key = `${session.project.dir}\u0000${session.row.session_ref}`;
  const stamp = files.map((f) => `${f.path}:${f.size_bytes}`).join("|");
  const p = pending.get(key);
  if (p && p.stamp === stamp) {
    if (p.done) return readSessionUsage(ctx, session);
    if (!p.failed) return null;
  }
  const entry: Pending = { stamp, done: false, failed: false };
  // Keys are sessions (bounded by the workspace); an entry holds two flags, the usage stays in readUsage's cache.
  pending.set(key, entry);
  readSessionUsage(ctx, session).then(() => (entry.done = true), () => (entry.failed = true));
  return null;
}

/** The workspace's price override file's stamp (`size:mtimeMs:ino`, `-` when absent): costs computed under another stamp are recomputed. */
export function pricingStamp(workspaceRoot: string): string {
  return fileStampOf(pricingOverrideFile(workspaceRoot), { inode: true }) ?? "-";
}

/**
 * A session's usage counted by prepare from the bytes it copied (its analysis pass builds every
 * line's record anyway, issue 25): true of the copy while its size and mtime are `fileStamp`
 * (`size:mtimeMs`), its subagent transcripts are `subagents` (prepare-plan's
 * `subagentsSignature`) and the price override file's stamp is `pricingStamp`.
 */
export type CountedUsage = { fileStamp: string; subagents: string; pricingStamp: string; usage: UsageTally };

/** The subagent transcripts a session's usage was counted from, as `name:size` in listing order joined by `|` (empty for none). */
export function subagentsSignature(files: readonly { name: string; size: number }[]): string {
  return files.map((f) => `${f.name}:${f.size}`).join("|");
}

/**
 * The usages one prepare counted, by project and session ref, for the catalog refresh that
 * follows it in the same process: each handed over once ({@link take}), so none outlives its row.
 */
export class CountedUsages {
  private readonly byKey = new Map<string, CountedUsage>();

  /** Records the usage counted for a session's copy. */
  set(projectKey: string, sessionRef: string, counted: CountedUsage): void {
    this.byKey.set(`${projectKey}\u0000${sessionRef}`, counted);
  }

  /** The usage counted for a session, removed from here; undefined when none was. */
  take(projectKey: string, sessionRef: string): CountedUsage | undefined {
    const key = `${projectKey}\u0000${sessionRef}`;
    const counted = this.byKey.get(key);
    this.byKey.delete(key);
    return counted;
  }

  /** How many usages are waiting to be taken. */
  get size(): number {
    return this.byKey.size;
  }
}
