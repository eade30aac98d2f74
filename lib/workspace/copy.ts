import { statSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";

/**
 * Byte-copies `source` to `target` (like Python's `shutil.copy2`: content plus mtime) unless
 * the target already has the same size and mtime. The copy goes to a temp file that is
 * renamed over the target, so a reader never sees a half-copied transcript.
 * Returns 1 when it copied, 0 when the target was already current.
 * @throws the fs error when the source cannot be read or the target written.
 */
export async function copyIfChanged(source: string, target: string): Promise<number> {
  // Synchronous stats: a sync checks every session this way, and a thread-pool round trip per
  // file costs far more wall time on a loaded machine than the stat itself.
  const src = statSync(source);
  const dst = statSync(target, { throwIfNoEntry: false });
  // utimes keeps about a microsecond of precision, so compare mtimes within a millisecond.
  if (dst && dst.size === src.size && Math.abs(dst.mtimeMs - src.mtimeMs) < 1) return 0;
  await fs.mkdir(path.dirname(target), { recursive: true });
  const tmp = `${target}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await fs.copyFile(source, tmp);
    await fs.utimes(tmp, src.atimeMs / 1000, src.mtimeMs / 1000);
    await fs.rename(tmp, target);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  }
  return 1;
}
