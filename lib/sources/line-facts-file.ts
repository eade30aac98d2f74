/**
 * An agent session's line facts (lib/sources/common/agent-source `AgentLines.facts`) stored beside the workspace's line
 * indexes: `<cacheDir>/<sha256 of the session file's absolute path>.facts`, this module's only place
 * on disk. A cache: missing, stale or unreadable facts only cost the whole read they spare.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";

import type { Logger } from "@/lib/context";
import { writeFileAtomic } from "@/lib/fs/atomic-write";
import { setAsideDerived } from "@/lib/fs/set-aside";

const FORMAT = "casefile-line-facts";

/** The file version the facts were read from, and by which agent's reader. */
type Header = { format: typeof FORMAT; source: string; sourcePath: string; size: number; mtimeMs: number };

/** The facts file of absolute `filePath` in `cacheDir`. */
function factsPath(cacheDir: string, filePath: string): string {
  return path.join(cacheDir, `${createHash("sha256").update(filePath).digest("hex")}.facts`);
}

/**
 * The facts text stored for absolute `filePath` as read by `source`'s reader when the file still
 * has `st`'s size and mtime, else null (missing or stale: never throws). A file that is not a
 * facts file (corrupt, cut short) is set aside with a warning through `log` (issue 35).
 */
export function readLineFacts(cacheDir: string, filePath: string, source: string, st: { size: number; mtimeMs: number }, log?: Logger): string | null {
  const file = factsPath(cacheDir, filePath);
  let text: string;
  try {
    // On this thread: a few hundred KB at most, and read before the page's first record.
    text = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  const nl = text.indexOf("\n");
  let header: Partial<Header> | null = null;
  try {
    header = nl === -1 ? null : (JSON.parse(text.slice(0, nl)) as Partial<Header>);
  } catch {
    header = null;
  }
  if (header?.format !== FORMAT || !text.endsWith("\n")) {
    if (log) setAsideDerived(file, "corrupt", "is not a valid line facts file (corrupt or truncated)", log);
    return null;
  }
  if (header.source !== source || header.sourcePath !== filePath || header.size !== st.size || header.mtimeMs !== st.mtimeMs) return null;
  return text.slice(nl + 1, -1);
}

/**
 * Stores `facts` (JSON text without a line break, as `AgentLines.facts` gives) of absolute
 * `filePath` read by `source`'s reader at size and mtime `st`: one file written atomically, without
 * fsync (a file cut short by a crash reads as corrupt and is rebuilt). Whether it was stored: a
 * failure (a read-only or full disk) is not an error, the facts are only a cache.
 */
export async function writeLineFacts(cacheDir: string, filePath: string, source: string, st: { size: number; mtimeMs: number }, facts: string): Promise<boolean> {
  const header: Header = { format: FORMAT, source, sourcePath: filePath, size: st.size, mtimeMs: st.mtimeMs };
  return writeFileAtomic(factsPath(cacheDir, filePath), `${JSON.stringify(header)}\n${facts}\n`, { durable: false }).then(
    () => true,
    () => false,
  );
}
