import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/*
 * Stale-lock detection for file-lock.ts: a lock names its owner (pid, host, token), so a lock
 * left by a dead process on this host is broken at once and a live one never; a lock whose owner
 * cannot be checked (another host, unreadable) is broken once its mtime — set when the lock is
 * taken and refreshed by the holder's heartbeat — is older than LOCK_STALE_MS.
 */

/** A lock whose owner is not provably alive and whose mtime is older than this is stale. */
const LOCK_STALE_MS = 10_000;

/** The record a lock file holds. */
export type Owner = { pid: number; host: string; token: string };

/**
 * Removes the lock when its owner on this host is dead, or when its owner cannot be checked and
 * its mtime is older than {@link LOCK_STALE_MS}. The lock is first renamed aside and re-checked, so a waiter that raced
 * another breaker never deletes a lock that was re-taken meanwhile. Returns true to retry now.
 */
export async function breakIfStale(lockPath: string, myToken: string): Promise<boolean> {
  let text: string;
  let mtimeMs: number;
  try {
    text = await fs.readFile(lockPath, "utf8");
    mtimeMs = (await fs.stat(lockPath)).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
  const owner = parseOwner(text);
  const local = owner !== null && owner.host === os.hostname();
  // A holder on this host is checked by pid alone: a live holder is never broken, however long
  // it holds the lock (issue 8 probe: waiters broke a 25 s holder's fresh lock). The mtime rule
  // is only for holders whose liveness cannot be checked (another host, an unreadable record).
  if (local ? pidAlive(owner.pid) : Date.now() - mtimeMs <= LOCK_STALE_MS) return false;
  const aside = `${lockPath}.stale.${process.pid}.${myToken}`;
  try {
    await fs.rename(lockPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
  const moved = await fs.readFile(aside, "utf8").catch(() => "");
  if (moved !== text) {
    // A live lock was taken between our read and the rename: put it back. If the path was
    // taken again meanwhile, the displaced owner's assertHeld() refuses to commit.
    await fs.link(aside, lockPath).catch(() => undefined);
  }
  await fs.rm(aside, { force: true });
  return true;
}

/** Deletes temp files and set-aside locks of this card left by writers that no longer run. */
export async function sweepOrphans(cardPath: string): Promise<void> {
  const dir = path.dirname(cardPath);
  const base = path.basename(cardPath).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const orphan = new RegExp(`^(?:\\.${base}\\.(\\d+)\\.[0-9a-f]+\\.tmp|${base}\\.lock\\.(?:stale\\.)?(\\d+)\\.[0-9a-f]+(?:\\.tmp)?)$`);
  for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
    const m = orphan.exec(name);
    const pid = Number(m?.[1] ?? m?.[2]);
    if (m && pid !== process.pid && !pidAlive(pid)) await fs.rm(path.join(dir, name), { force: true });
  }
}

/** The owner record of a lock file, or null when absent or unreadable. */
export async function readOwner(lockPath: string): Promise<Owner | null> {
  return parseOwner(await fs.readFile(lockPath, "utf8").catch(() => ""));
}

function parseOwner(text: string): Owner | null {
  try {
    const v = JSON.parse(text) as Partial<Owner>;
    return typeof v.pid === "number" && typeof v.host === "string" && typeof v.token === "string" ? (v as Owner) : null;
  } catch {
    return null;
  }
}

/** True when a process with this pid exists (EPERM: it exists but belongs to another user). */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
