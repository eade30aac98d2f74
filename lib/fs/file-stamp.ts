/** A file version's stamp: what tells one version of a file from the next without reading it. */
import { statSync } from "node:fs";

/** The stat fields a stamp is made of (an `fs.Stats`, or a line index's `size` and `mtimeMs`). */
type FileVersion = { size: number; mtimeMs: number };

/**
 * A file version's stamp, `size:mtimeMs`; with `inode`, `size:mtimeMs:ino`, so a file replaced by
 * another of the same size and mtime (renamed over it, copied with its times) reads as changed.
 * Stamps are stored and compared with new ones (the catalog's session `file_stamp`, which its risk
 * pass reads the size from, and its project stamps; the sync memo; the usage and analysis caches):
 * a change of this format makes every stored stamp stale.
 */
export function fileStamp(st: FileVersion): string;
export function fileStamp(st: FileVersion & { ino: number }, options: { inode: true }): string;
export function fileStamp(st: FileVersion & { ino?: number }, options?: { inode: true }): string {
  const stamp = `${st.size}:${st.mtimeMs}`;
  return options?.inode ? `${stamp}:${st.ino}` : stamp;
}

/**
 * {@link fileStamp} of the file at `file` (one synchronous stat, links followed), null when there is none.
 * @throws the fs error of a stat that fails otherwise (EACCES, EIO).
 */
export function fileStampOf(file: string, options?: { inode: true }): string | null {
  const st = statSync(file, { throwIfNoEntry: false });
  if (!st) return null;
  return options ? fileStamp(st, options) : fileStamp(st);
}
