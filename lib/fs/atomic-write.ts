/** The one atomic file write: temp file, fsync, rename, directory fsync. */
import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

/**
 * Writes `data` to `target` atomically: a sibling temp file is written, fsynced and renamed
 * over the target, then the directory is fsynced. A crash leaves the old or the new file,
 * never a torn one (architecture.md, "Rules that hold everywhere").
 * `data` may be a list of byte chunks, or any iterable of byte or text chunks (e.g. a generator that
 * makes them as they are written: lib/json/json-chunks), written one after the other (no joined copy).
 * `durable: false` skips both fsyncs, for a cache its reader validates (a crash may then leave
 * a short or empty file, never a half-renamed one), such as the forensics scan store.
 * A small non-durable write is made on the calling thread (see {@link SYNC_WRITE_MAX_BYTES})
 * unless `inPool` is set: a caller with more work to do meanwhile (a window building its next
 * compact block) lets the thread pool write while it works.
 * @throws the underlying fs error (ENOSPC, EACCES, ...) after removing the temp file.
 */
export async function writeFileAtomic(target: string, data: string | Uint8Array | Iterable<string | Uint8Array>, options: { durable?: boolean; inPool?: boolean } = {}): Promise<void> {
  const durable = options.durable ?? true;
  const dir = path.dirname(target);
  const tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.${TMP_TAG}${(tmpCount++).toString(36)}.tmp`);
  if (!durable && !options.inPool && (typeof data === "string" || data instanceof Uint8Array) && data.length <= SYNC_WRITE_MAX_BYTES) return writeSmallSync(dir, tmp, target, data);
  await fs.mkdir(dir, { recursive: true });
  const handle = await fs.open(tmp, "w");
  try {
    if (typeof data === "string" || data instanceof Uint8Array) await handle.writeFile(data);
    // Each writeFile continues at the handle's position and loops until its chunk is written.
    else for (const chunk of data) await handle.writeFile(chunk);
    if (durable) await handle.sync();
  } catch (error) {
    await handle.close();
    await fs.rm(tmp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await fs.rename(tmp, target);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  }
  if (durable) await fsyncDir(dir);
}

/** Temp names: the process id, a random tag drawn once and a counter (a random draw per write cost a 2,000-file push 30 ms). */
const TMP_TAG = randomBytes(4).toString("hex");
let tmpCount = 0;

/**
 * Non-durable writes of at most this many bytes (or characters) are made on the calling thread:
 * each of the five thread-pool round trips cost ~60 µs of CPU, more than writing such a file to
 * the page cache (issue 25: prepare writes a line index per session).
 */
const SYNC_WRITE_MAX_BYTES = 256 << 10;

/** {@link writeFileAtomic} without fsyncs, on this thread. */
function writeSmallSync(dir: string, tmp: string, target: string, data: string | Uint8Array): void {
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, target);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

async function fsyncDir(dir: string): Promise<void> {
  // NOTE: directory fsync makes the rename durable; some filesystems refuse it, which is harmless.
  try {
    const handle = await fs.open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    /* not supported here */
  }
}

/** Serializes JSON the way prompt-diary writes cards and metadata: indent 2 plus a trailing newline. */
export function toPrettyJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
