/** Aider projects under a home folder: the folders holding `.aider.chat.history.md`, found by a bounded walk. */
import { readdirSync } from "node:fs";
import path from "node:path";

/** The history file Aider writes in each project root (agent-formats.md §4). */
export const AIDER_HISTORY = ".aider.chat.history.md";
/** How deep below home the walk looks (`~/src/myrepo` is 2). */
const MAX_DEPTH = 4;
/** At most this many folders are read: a home holds far more than projects. */
const MAX_FOLDERS = 20_000;
/** Folders never entered: dependency trees and build output. */
const SKIPPED = new Set(["node_modules", "vendor", "target", "dist", "build", "venv", "__pycache__", "Library", "snap"]);

/**
 * Aider keeps no home folder of sessions, so its default "roots" are the project folders under
 * `home` that hold a `.aider.chat.history.md`: a breadth-first walk at most {@link MAX_DEPTH}
 * folders deep and {@link MAX_FOLDERS} folders wide, skipping hidden folders (`.git`, `.cache`,
 * …), dependency trees and symlinks. Returns absolute folder paths in walk order; [] when home
 * cannot be read. Projects elsewhere are added with `casefile sources add --aider PATH`.
 */
export function aiderProjectsUnder(home: string): string[] {
  const found: string[] = [];
  let level = [path.resolve(home)];
  let read = 0;
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      if (read++ >= MAX_FOLDERS) return found;
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      if (entries.some((e) => e.name === AIDER_HISTORY && e.isFile())) found.push(dir);
      for (const e of entries) if (e.isDirectory() && !e.name.startsWith(".") && !SKIPPED.has(e.name)) next.push(path.join(dir, e.name));
    }
    level = next.sort();
  }
  return found;
}
