/** Cross-process file locks with stale-owner recovery (`withFileLock`). */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

import { breakIfStale, type Owner, readOwner, sweepOrphans } from "@/lib/fs/stale-lock";
import { AppError } from "@/lib/errors";

/*
 * Serializes writers of one file (an evidence card, a synthesis envelope): an in-process promise
 * queue keyed by path, then a lock file beside it (`<file>.lock`) that also excludes other
 * processes. The lock names its owner (pid, host), so a dead local owner's lock is broken at once
 * (proper-lockfile only knows the lock's mtime); a heartbeat mtime covers other hosts (stale-lock.ts).
 */

const HEARTBEAT_MS = 2_000;
const ACQUIRE_TIMEOUT_MS = 30_000;

/** A held lock: verify it is still ours right before committing. */
export type HeldLock = { assertHeld(): Promise<void> };

const queues = new Map<string, Promise<void>>();

/**
 * Runs `fn` while holding the file's in-process slot and its cross-process lock file; both are
 * released whatever `fn` does. Orphaned temp files of dead writers are swept under the lock.
 * @throws AppError io_error when the lock cannot be taken within 30 s; whatever `fn` throws.
 */
export async function withFileLock<T>(cardPath: string, fn: (lock: HeldLock) => Promise<T>): Promise<T> {
  const previous = queues.get(cardPath) ?? Promise.resolve();
  let done!: () => void;
  const gate = new Promise<void>((resolve) => (done = resolve));
  const tail = previous.then(() => gate);
  queues.set(cardPath, tail);
  await previous;
  const dir = path.dirname(cardPath);
  const hadDir = await fs.stat(dir).then(() => true, () => false);
  try {
    const lock = await acquire(cardPath);
    try {
      await sweepOrphans(cardPath);
      return await fn(lock);
    } finally {
      await lock.release();
    }
  } finally {
    // A refused first write must not leave an empty evidence/ behind ("a rejected write changes
    // nothing"); rmdir fails harmlessly when a card or another writer's file is in it.
    if (!hadDir) await fs.rmdir(dir).catch(() => undefined);
    done();
    if (queues.get(cardPath) === tail) queues.delete(cardPath);
  }
}

async function acquire(cardPath: string): Promise<HeldLock & { release(): Promise<void> }> {
  const lockPath = `${cardPath}.lock`;
  const owner: Owner = { pid: process.pid, host: os.hostname(), token: randomBytes(8).toString("hex") };
  // The owner record is written first and hard-linked into place, so a lock never exists without it.
  const tmp = `${lockPath}.${process.pid}.${owner.token}.tmp`;
  for (;;) {
    await fs.mkdir(path.dirname(cardPath), { recursive: true });
    try {
      await fs.writeFile(tmp, JSON.stringify(owner));
      break;
    } catch (error) {
      // Another process removed the directory it had just created (see withFileLock): recreate it.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  const deadline = Date.now() + ACQUIRE_TIMEOUT_MS;
  try {
    for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
      try {
        // The lock's age counts from when it is taken, not from when this writer began to wait:
        // the hard link shares the temp file's mtime, so both are stamped now.
        const now = new Date();
        await fs.utimes(tmp, now, now);
        await place(tmp, lockPath, owner);
        await touchIfOurs(lockPath, owner.token);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      if (await breakIfStale(lockPath, owner.token)) continue;
      if (Date.now() > deadline) {
        throw new AppError("io_error", `timed out waiting for the write lock ${lockPath}`, {
          hint: "another writer holds it; retry, or remove the lock file if no Casefile process is running",
        });
      }
      await sleep(delay * (0.5 + Math.random()));
    }
  } finally {
    await fs.rm(tmp, { force: true });
  }
  const heartbeat = setInterval(() => void touchIfOurs(lockPath, owner.token), HEARTBEAT_MS);
  heartbeat.unref();
  return {
    async assertHeld() {
      if ((await readOwner(lockPath))?.token !== owner.token) {
        throw new AppError("io_error", `lost the write lock ${lockPath} to another writer; nothing was written`, { hint: "retry the write" });
      }
    },
    async release() {
      clearInterval(heartbeat);
      if ((await readOwner(lockPath))?.token === owner.token) await fs.rm(lockPath, { force: true });
    },
  };
}

/**
 * Creates the lock atomically with its owner record: a hard link of the written temp file.
 * Filesystems without hard links fall back to an exclusive create (a crash between create and
 * write then leaves an ownerless lock, which the mtime rule clears after LOCK_STALE_MS).
 * @throws EEXIST when the lock is held.
 */
async function place(tmp: string, lockPath: string, owner: Owner): Promise<void> {
  try {
    await fs.link(tmp, lockPath);
  } catch (error) {
    if (!["EPERM", "ENOTSUP", "ENOSYS", "EOPNOTSUPP"].includes((error as NodeJS.ErrnoException).code ?? "")) throw error;
    const handle = await fs.open(lockPath, "wx");
    try {
      await handle.writeFile(JSON.stringify(owner));
    } finally {
      await handle.close();
    }
  }
}

async function touchIfOurs(lockPath: string, token: string): Promise<void> {
  try {
    if ((await readOwner(lockPath))?.token === token) {
      const now = new Date();
      await fs.utimes(lockPath, now, now);
    }
  } catch {
    /* the lock vanished: assertHeld() reports it before any commit */
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
