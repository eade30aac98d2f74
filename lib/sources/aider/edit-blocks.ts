/**
 * The edits inside Aider's replies (agent-formats.md §4): SEARCH/REPLACE blocks (the file name on
 * the line before the block or before its opening fence), whole files (a file name line, then a
 * fence), unified diffs (`--- a` / `+++ b` inside a fence) and patches (`*** Update File: a`).
 * Read one reply line at a time; each edit is found on one line, which carries its call.
 */

const SEARCH_MARKER = /^<{5,9} SEARCH>?\s*$/;
const REPLACE_MARKER = /^>{5,9} REPLACE\s*$/;
const FENCE = /^\s*(`{3,}|~{3,})(.*)$/;
const PATCH_FILE = /^\*\*\* (Update|Add|Delete) File: (.+)$/;

/** Where the reader is inside a reply. Reset with {@link newEditScan} when the reply ends. */
export type EditScan = {
  /** The open code fence (its character and length), or null. */
  fence: { char: string; length: number } | null;
  /** Inside a SEARCH/REPLACE block: fence lines there are the file's content. */
  inBlock: boolean;
  /** The file of the reply's last block: Aider's fallback for a block whose file is not named. */
  lastFile: string | null;
};

/** A scan at the start of a reply. */
export function newEditScan(): EditScan {
  return { fence: null, inBlock: false, lastFile: null };
}

/** An edit found on a reply line: the file (null when the reply does not name it) and how it edits. */
export type FoundEdit = { path: string | null; kind: "search/replace" | "whole file" | "diff" | "patch" };

/**
 * The edit that line `i` of `lines` opens, given the scan so far (updated in place), else null:
 * - `<<<<<<< SEARCH`: a SEARCH/REPLACE block, its file from the nearest lines above (Aider's
 *   `find_filename`: up to 3 lines, passing over fence lines), else the reply's previous block file;
 * - a fence opening after a file-name line (or with the file as its info string): a whole file,
 *   unless a SEARCH marker follows within two lines (the block carries the edit then);
 * - `+++ path` after `--- path` inside a fence: a unified diff of that file;
 * - `*** Update|Add|Delete File: path`: an Aider patch.
 */
export function scanEditLine(lines: readonly string[], i: number, scan: EditScan): FoundEdit | null {
  const line = lines[i]!;
  if (SEARCH_MARKER.test(line)) {
    const path = fileAbove(lines, i) ?? scan.lastFile;
    scan.inBlock = true;
    if (path !== null) scan.lastFile = path;
    return { path, kind: "search/replace" };
  }
  if (REPLACE_MARKER.test(line)) {
    scan.inBlock = false;
    return null;
  }
  if (scan.inBlock) return null;
  const patch = PATCH_FILE.exec(line.trim());
  if (patch !== null) return { path: patch[2]!.trim(), kind: "patch" };
  const fence = FENCE.exec(line);
  if (fence !== null) return scanFence(lines, i, fence[1]!, fence[2]!.trim(), scan);
  if (scan.fence !== null && line.startsWith("+++ ") && i > 0 && lines[i - 1]!.startsWith("--- ")) {
    const path = diffPath(line.slice(4), lines[i - 1]!.slice(4));
    return path === null ? null : { path, kind: "diff" };
  }
  return null;
}

/** A fence line: it closes the open fence, or opens one (a whole-file edit when a file name comes with it). */
function scanFence(lines: readonly string[], i: number, marks: string, info: string, scan: EditScan): FoundEdit | null {
  const open = scan.fence;
  if (open !== null) {
    if (info === "" && marks[0] === open.char && marks.length >= open.length) scan.fence = null;
    return null;
  }
  scan.fence = { char: marks[0]!, length: marks.length };
  if ([lines[i + 1], lines[i + 2]].some((next) => next !== undefined && SEARCH_MARKER.test(next))) return null;
  const path = pathLike(info) ? info : i > 0 ? fileNameLine(lines[i - 1]!) : null;
  if (path === null || !pathLike(path)) return null;
  scan.lastFile = path;
  return { path, kind: "whole file" };
}

/**
 * The file named just above a SEARCH marker: the nearest of the 3 lines above that names one,
 * looking past fence lines only (a fence's info string may itself be the file, `` ```src/a.py ``).
 */
function fileAbove(lines: readonly string[], i: number): string | null {
  for (let k = i - 1; k >= Math.max(0, i - 3); k--) {
    const line = lines[k]!;
    const fence = FENCE.exec(line.trim());
    if (fence === null) return fileNameLine(line);
    const info = fence[2]!.trim();
    if (pathLike(info)) return info;
  }
  return null;
}

/**
 * A line that is only a file name, stripped as Aider's `strip_filename` does (trailing `:`,
 * leading `#`, surrounding backticks and `*`, here in any nesting), else null. A name with whitespace is prose, not a
 * file (Aider would guess; here a sentence must not become a file).
 */
function fileNameLine(line: string): string | null {
  const name = line
    .trim()
    .replace(/:+$/, "")
    .replace(/^#+/, "")
    .trim()
    .replace(/^[`*]+|[`*]+$/g, "");
  return name === "" || name === "..." || /\s/.test(name) ? null : name;
}

/** Looks like a path: no whitespace, and a folder separator or a file extension (`a/b`, `x.ts`). */
function pathLike(text: string): boolean {
  return text !== "" && !/\s/.test(text) && (text.includes("/") || /\.[A-Za-z0-9]+$/.test(text));
}

/** The file a `+++` line edits (git's `b/` dropped when the `---` line has `a/`); null for /dev/null. */
function diffPath(plus: string, minus: string): string | null {
  const name = plus.trim().split("\t")[0]!;
  if (name === "" || name === "/dev/null") return null;
  return name.startsWith("b/") && minus.trim().startsWith("a/") ? name.slice(2) : name;
}
