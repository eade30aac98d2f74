/** What a team server lacks of one file a machine announces (issue 39, the push protocol's step 1). */
import { HEAD_BYTES, type ManifestFile } from "@/lib/team/push/protocol";

/** What the server holds of a file: its copy's size, its mtime (set to the machine's on every write, whole ms) and head hash. */
export type HeldFile = { size: number; mtime_ms: number; head_sha256: string };

/**
 * The offset from which the server wants `file`, or null when its copy is the same:
 * - nothing held: 0 (send it whole);
 * - same size and head, and (for a file its writer only appends to) any mtime, else the same mtime: null;
 * - a shorter copy with the same head over a full {@link HEAD_BYTES}, of a file that only grows
 *   (append-only), or whose mtime is the one the copy was written with (an upload cut short):
 *   the copy's size (send only the rest);
 * - anything else (rewritten, shorter, a head that differs, a copy too short to compare heads): 0.
 * A copy shorter than 64 KiB cannot show that its head is the file's, so a small file that grew is sent whole.
 */
export function wantedOffset(held: HeldFile | null, file: ManifestFile, appendOnly: boolean): number | null {
  if (held === null) return 0;
  const sameHead = held.head_sha256 === file.head_sha256;
  const sameTime = held.mtime_ms === file.mtime_ms;
  if (held.size === file.size && sameHead && (appendOnly || sameTime)) return null;
  if (held.size < file.size && held.size >= HEAD_BYTES && sameHead && (appendOnly || sameTime)) return held.size;
  return 0;
}
