/** Paths resolved inside a root without escapes (no `..`, no symlink out). */
import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

import { stampedCache } from "@/lib/cache/stamped-cache";
import { AppError } from "@/lib/errors";

/**
 * Resolves `relative` under `root` and checks, after `realpath` of both, that the result
 * stays inside `root` (no `..`, no symlink escapes; architecture.md "Paths").
 * Returns the absolute, real path. Missing files are resolved lexically through their
 * deepest existing ancestor.
 * @throws AppError invalid_input when the path escapes the root.
 */
export async function resolveInside(root: string, relative: string): Promise<string> {
  if (path.isAbsolute(relative) || relative.split(/[\\/]/).includes("..")) {
    throw new AppError("invalid_input", `path '${relative}' must be relative and stay inside ${root}`, { path: relative });
  }
  const realRoot = await realRootOf(root);
  const candidate = path.resolve(realRoot, relative);
  const real = realpathOfExisting(candidate);
  if (real !== realRoot && !real.startsWith(realRoot + path.sep)) {
    throw new AppError("invalid_input", `path '${relative}' resolves outside ${root}`, { path: relative });
  }
  return real;
}

/** Real paths of roots, kept while the root names the same directory (device and inode). */
const realRoots = stampedCache<string>("fs:real-roots", 1 << 20);

/**
 * `realpath(root)`, remembered while `root` resolves to the same directory: a catalog refresh
 * resolves 20,000 session paths under 200 project roots, and each root's walk cost as much as the path's.
 */
async function realRootOf(root: string): Promise<string> {
  const st = statSync(root, { throwIfNoEntry: false });
  if (!st) return fs.realpath(root);
  const stamp = `${st.dev}:${st.ino}`;
  const known = realRoots.get(root, stamp);
  if (known !== undefined) return known;
  const real = realpathSync.native(root);
  realRoots.set(root, stamp, real, 64 + 2 * (root.length + real.length));
  return real;
}

/**
 * `realpath(3)` of `p`, or of its nearest existing ancestor with the rest appended. On this
 * thread: a thread-pool round trip cost ~60 µs of CPU, ten times the call (issue 25: a catalog
 * refresh resolves every session's path).
 */
function realpathOfExisting(p: string, hops = 0): string {
  try {
    return realpathSync.native(p);
  } catch {
    // A dangling link resolves where it leads: a write through it would land there (issue 35).
    const link = hops < 40 ? lstatSync(p, { throwIfNoEntry: false }) : undefined;
    if (link?.isSymbolicLink()) return realpathOfExisting(path.resolve(path.dirname(p), readlinkSync(p)), hops + 1);
    const parent = path.dirname(p);
    if (parent === p) return p;
    return path.join(/*turbopackIgnore: true*/ realpathOfExisting(parent, hops), path.basename(p));
  }
}

/**
 * Whether the entry `name` of folder `dir` is a link that leads outside `dir` (after `realpath`;
 * a dangling link counts by where it points). False for a missing entry, a plain file or folder,
 * or a link that stays inside. Synchronous, one `lstat` unless the entry is a link: the change
 * stamps ask it of every project's evidence folder (issue 35: a project's `evidence` linked out
 * of the workspace must not be listed or read).
 */
export function linksOutside(dir: string, name: string): boolean {
  const entry = path.join(dir, name);
  if (!lstatSync(entry, { throwIfNoEntry: false })?.isSymbolicLink()) return false;
  let realDir: string;
  try {
    realDir = realpathSync.native(dir);
  } catch {
    return true;
  }
  const real = realpathOfExisting(entry);
  return real !== realDir && !real.startsWith(realDir + path.sep);
}

/** True when `p` exists (any type). */
export async function exists(p: string): Promise<boolean> {
  try {
    await fs.stat(p);
    return true;
  } catch {
    return false;
  }
}
