/** Derived files (under `.casefile/`) that cannot be used are set aside, renamed with a timestamp, and said so: never deleted unseen, never a failure. */
import { renameSync, rmSync } from "node:fs";

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
      rmSync(`${file}${suffix}`, { force: true });
    }
  }
  log.warn(`[casefile] ${file} ${why}; set aside as ${aside} and rebuilt from the transcripts`);
  return aside;
}
