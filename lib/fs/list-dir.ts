/** The one "list a folder's names, sorted; none when it cannot be read" helper. */
import fs from "node:fs/promises";

/** What {@link listDir} keeps: every entry (default), regular files or folders, and optionally names passing `filter`. */
export type ListDirOptions = { type?: "any" | "file" | "dir"; filter?: (name: string) => boolean };

/**
 * The names in `dir` (not paths), sorted by UTF-16 code unit, keeping only entries of `type`
 * and names passing `filter`; null when `dir` cannot be read (missing, not a folder, no access).
 */
export async function readDirNames(dir: string, options: ListDirOptions = {}): Promise<string[] | null> {
  const type = options.type ?? "any";
  let names: string[];
  try {
    if (type === "any") names = await fs.readdir(dir);
    else names = (await fs.readdir(dir, { withFileTypes: true })).filter((e) => (type === "dir" ? e.isDirectory() : e.isFile())).map((e) => e.name);
  } catch {
    return null;
  }
  return (options.filter ? names.filter(options.filter) : names).sort();
}

/** {@link readDirNames}, with `[]` when the folder cannot be read. */
export async function listDir(dir: string, options: ListDirOptions = {}): Promise<string[]> {
  return (await readDirNames(dir, options)) ?? [];
}
