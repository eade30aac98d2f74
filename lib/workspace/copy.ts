/** Session files copied into the workspace, as clones where the file system can. */
import { constants as fsConstants, mkdirSync, renameSync, statSync, utimesSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";

/**
 * Copies are copy-on-write clones where the file system makes them (APFS, Btrfs, XFS): the
 * clone's bytes are the source's at that moment and later appends to the source do not reach it,
 * so it is a byte copy that costs no time or disk. Elsewhere (ext4) the kernel copies the bytes
 * as before.
 */
const CLONE_OR_COPY = fsConstants.COPYFILE_FICLONE;

/** A copy of a source made ahead of time (see {@link StagedCopies}), valid while the source keeps `size` and `mtimeMs`. */
type Staged = { file: string; size: number; mtimeMs: number };

/**
 * Copies of large sources started while they are still being analysed (issue 13: the copy runs
 * in the thread pool on the other core instead of after the analysis). Each lives in `dir`
 * (inside the workspace, so a rename puts it in place) until {@link take}n; {@link dispose}
 * removes the directory with whatever was not used. A staged copy counts only when the source
 * had the same size and mtime before and after it was copied and still has them when taken.
 */
export class StagedCopies {
  private readonly copies = new Map<string, Promise<Staged | null>>();
  private counter = 0;

  /** @param dir a directory of its own (created on first use, removed by {@link dispose}). */
  constructor(private readonly dir: string) {}

  /** Starts copying `source` (absolute) unless already started. Never throws (a failed copy is simply not used). */
  stage(source: string): void {
    if (this.copies.has(source)) return;
    const file = path.join(this.dir, `${this.counter++}.jsonl.tmp`);
    const task = (async (): Promise<Staged | null> => {
      const before = statSync(source);
      await fs.mkdir(this.dir, { recursive: true });
      await fs.copyFile(source, file, CLONE_OR_COPY);
      const after = statSync(source);
      return before.size === after.size && before.mtimeMs === after.mtimeMs ? { file, size: after.size, mtimeMs: after.mtimeMs } : null;
    })().catch(() => null);
    this.copies.set(source, task);
  }

  /** The staged copy of `source` when it is still a copy of its current bytes (`src` its stat now), else null; taken at most once. */
  async take(source: string, src: { size: number; mtimeMs: number }): Promise<string | null> {
    const task = this.copies.get(source);
    if (!task) return null;
    this.copies.delete(source);
    const staged = await task;
    if (staged === null) return null;
    if (staged.size === src.size && staged.mtimeMs === src.mtimeMs) return staged.file;
    await fs.rm(staged.file, { force: true });
    return null;
  }

  /** Waits for copies still running and removes the staging directory. Never throws. */
  async dispose(): Promise<void> {
    await Promise.all(this.copies.values());
    this.copies.clear();
    await fs.rm(this.dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * Byte-copies `source` to `target` (like Python's `shutil.copy2`: content plus mtime) unless
 * the target already has the same size and mtime. The copy goes to a temp file that is
 * renamed over the target, so a reader never sees a half-copied transcript.
 * Returns 1 when it copied, 0 when the target was already current. With `staged`, a copy of
 * `source` already staged there (and still current) is moved in place instead of copying again.
 * @throws the fs error when the source cannot be read or the target written.
 */
export async function copyIfChanged(source: string, target: string, staged?: StagedCopies): Promise<number> {
  // Synchronous stats: a sync checks every session this way, and a thread-pool round trip per
  // file costs far more wall time on a loaded machine than the stat itself.
  const src = statSync(source);
  const dst = statSync(target, { throwIfNoEntry: false });
  // utimes keeps about a microsecond of precision, so compare mtimes within a millisecond.
  if (dst && dst.size === src.size && Math.abs(dst.mtimeMs - src.mtimeMs) < 1) return 0;
  // The metadata calls run on this thread too (a thread-pool round trip cost ~60 µs of CPU, more
  // than each call: issue 25); the byte copy runs in the thread pool, beside this thread's work.
  mkdirSync(path.dirname(target), { recursive: true });
  const tmp = `${target}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    const ready = staged ? await staged.take(source, src) : null;
    if (ready !== null) renameSync(ready, tmp);
    else await fs.copyFile(source, tmp, CLONE_OR_COPY);
    utimesSync(tmp, src.atimeMs / 1000, src.mtimeMs / 1000);
    renameSync(tmp, target);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  }
  return 1;
}
