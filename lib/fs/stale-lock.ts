/** Lock owner records, stale-lock breaking and orphaned temp-file sweeping. */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { listDir } from "@/lib/fs/list-dir";

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
 * its mtime is older than {@link LOCK_STALE_MS}. Returns true to retry taking the lock now.
 *
 * Breakers are serialized by a second lock, `<lock>.break`, and the holder removes the lock only
 * when it still holds the very record judged stale (each take writes a fresh random token, so
 * equal text is the same take), so two waiters that judged one lock stale never remove a lock a
 * third writer has just taken.
 */
export async function breakIfStale(lockPath: string, myToken: string): Promise<boolean> {
  const seen = await readLock(lockPath);
  if (!seen) return true;
  if (!isStale(seen)) return false;
  const breakPath = `${lockPath}.break`;
  if (!(await takeBreakLock(breakPath, myToken))) return false; // another waiter is breaking it
  try {
    const now = await readLock(lockPath);
    // Gone, or taken anew since it was judged: retry from a fresh look.
    if (!now || now.text !== seen.text) return true;
    await fs.rm(lockPath, { force: true });
    return true;
  } finally {
    if ((await readOwner(breakPath))?.token === myToken) await fs.rm(breakPath, { force: true });
  }
}

type SeenLock = { text: string; mtimeMs: number };

async function readLock(lockPath: string): Promise<SeenLock | null> {
  try {
    const text = await fs.readFile(lockPath, "utf8");
    const { mtimeMs } = await fs.stat(lockPath);
    return { text, mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

function isStale({ text, mtimeMs }: SeenLock): boolean {
  const owner = parseOwner(text);
  // A holder on this host is checked by pid alone: a live holder is never broken, however long
  // it holds the lock (issue 8 probe: waiters broke a 25 s holder's fresh lock). The mtime rule
  // is only for holders whose liveness cannot be checked (another host, an unreadable record).
  if (owner !== null && owner.host === os.hostname()) return !pidAlive(owner.pid);
  return Date.now() - mtimeMs > LOCK_STALE_MS;
}

/**
 * Takes `<lock>.break` (its owner record hard-linked into place, like the lock itself). A break
 * lock left by a breaker that died is removed by the same staleness rule, set aside first and
 * put back when it turns out to be a live one taken meanwhile. False when it is held.
 */
async function takeBreakLock(breakPath: string, myToken: string): Promise<boolean> {
  const tmp = `${breakPath}.${process.pid}.${myToken}.tmp`;
  await fs.writeFile(tmp, JSON.stringify({ pid: process.pid, host: os.hostname(), token: myToken } satisfies Owner));
  try {
    await fs.link(tmp, breakPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    await fs.rm(tmp, { force: true });
  }
  await clearStaleBreakLock(breakPath, myToken);
  return false;
}

/**
 * Removes `<lock>.break` when its breaker died (the staleness rule of locks), set aside first and
 * put back when it turns out to be a live one taken meanwhile.
 */
async function clearStaleBreakLock(breakPath: string, myToken: string): Promise<void> {
  const held = await readLock(breakPath);
  if (!held || !isStale(held)) return;
  const aside = `${breakPath}.stale.${process.pid}.${myToken}`;
  try {
    await fs.rename(breakPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    return;
  }
  const moved = await fs.readFile(aside, "utf8").catch(() => "");
  if (moved !== held.text) await fs.link(aside, breakPath).catch(() => undefined);
  await fs.rm(aside, { force: true });
}

/**
 * Deletes temp files, set-aside locks, break-lock temp files and a break lock of this card left by
 * writers that no longer run (a breaker killed after removing the stale lock, before its break
 * lock, left `<card>.lock.break` behind for good: nothing breaks a lock that is not there).
 */
export async function sweepOrphans(cardPath: string): Promise<void> {
  const dir = path.dirname(cardPath);
  const base = path.basename(cardPath).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const orphan = new RegExp(`^(?:\\.${base}\\.(\\d+)\\.[0-9a-f]+\\.tmp|${base}\\.lock\\.(?:break\\.)?(?:stale\\.)?(\\d+)\\.[0-9a-f]+(?:\\.tmp)?)$`);
  for (const name of await listDir(dir)) {
    const m = orphan.exec(name);
    const pid = Number(m?.[1] ?? m?.[2]);
    if (m && pid !== process.pid && !pidAlive(pid)) await fs.rm(path.join(dir, name), { force: true });
  }
  await clearStaleBreakLock(`${cardPath}.lock.break`, randomBytes(8).toString("hex"));
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
