/** Derived files (under `.casefile/`) that cannot be used are set aside, renamed with a timestamp, and said so: never deleted unseen, never a failure. */
import { renameSync, rmSync } from "node:fs";
import fs from "node:fs/promises";

import type { Logger } from "@/lib/context";

/**
 * The name a set-aside file gets: `<file>.<reason>-<UTC timestamp>` beside it, e.g.
 * `catalog.sqlite.corrupt-20261128T101500123Z` (milliseconds, so two set asides in one second keep both).
 */
export function setAsideName(file: string, reason: string, now: Date): string {
  return `${file}.${reason}-${now.toISOString().replace(/[-:.]/g, "")}`;
}

/**
 * Renames a derived file that is corrupt, truncated or cannot be written out of the way
 * ({@link setAsideName}), with its `companions` (suffixes such as SQLite's `-wal`, which follow it
 * under the new name, else are removed; `-shm` is rebuilt by SQLite, so it is removed), and warns through `log`
 * naming both paths and `why`. The caller then rebuilds the file from the transcripts.
 * Returns the new path, or null when the file could not be moved (a read-only or immutable
 * folder or file): the warning then says it stays where it is and is not used.
 */
export function setAsideDerived(file: string, reason: string, why: string, log: Logger, options: { now?: Date; companions?: readonly string[] } = {}): string | null {
  const aside = setAsideName(file, reason, options.now ?? new Date());
  try {
    renameSync(file, aside);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Gone meanwhile (another process set it aside first): nothing to say.
    if (code === "ENOENT") return null;
    log.warn(`[casefile] ${file} ${why}; it cannot be set aside (${code ?? String(error)}), so it is left in place and not used`);
    return null;
  }
  for (const suffix of options.companions ?? []) {
    try {
      if (suffix !== "-shm") renameSync(`${file}${suffix}`, `${aside}${suffix}`);
      else rmSync(`${file}${suffix}`, { force: true });
    } catch {
      // Absent (the usual case), else removed: a stale WAL left under the old name would be
      // replayed into the new file made there.
      try {
        rmSync(`${file}${suffix}`, { force: true });
      } catch {
        // NOTE: the folder let the file move, so this is not expected; the file is set aside all the same.
      }
    }
  }
  log.warn(`[casefile] ${file} ${why}; set aside as ${aside} and rebuilt from the transcripts`);
  return aside;
}

/**
 * Reads a derived JSON file (a cache its reader checks): the parsed value, or null when it is
 * missing or cannot be read (the caller builds it anew). One that is not valid JSON, or fails
 * `valid` (cut short, overwritten, of the wrong shape), is set aside with a warning through `log`
 * ({@link setAsideDerived}) and reads as null. Never throws.
 */
export async function readDerivedJson(file: string, log: Logger | undefined, valid: (value: unknown) => boolean = () => true): Promise<unknown> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch {
    return null;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (value !== undefined && valid(value)) return value;
  if (log) setAsideDerived(file, "corrupt", "is not valid (corrupt or truncated)", log);
  return null;
}

/** Whether `value` is a JSON object (not null, not an array): the shape of every derived JSON file but the compact blocks. */
export const isJsonRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
