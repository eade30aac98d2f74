/**
 * The pushing machine's memo of its files' head hashes (issue 39: the manifest's `head_sha256`),
 * kept between `casefile push` runs so a push of unchanged files reads none of them again. A head
 * is reused only while the file's size, mtime, ctime and inode are those it was hashed at (ctime
 * changes with any write, even one that puts the mtime back), so the memo says what a read would.
 * The server still decides what it lacks from what it holds; the memo only spares the client's reads.
 */
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

import { writeFileAtomic } from "@/lib/fs/atomic-write";
import type { HeadCache } from "@/lib/team/push/push-client";

/** The memo file: `~/.casefile/push-heads.json` (`home`: the user's home), beside the default workspace (lib/config). */
export function headMemoPath(home: string = os.homedir()): string {
  return path.join(home, ".casefile", "push-heads.json");
}

type MemoFile = { schema_version: 1; heads: Record<string, [stamp: string, head: string]> };

/** A loaded memo: its heads as a push's {@link HeadCache}, and the text it was read from (to write only a changed memo). */
export type HeadMemo = { file: string; cache: HeadCache; text: string };

/** Reads the memo at `file`; a missing or malformed memo is empty (every head is then hashed again). */
export function loadHeadMemo(file: string): HeadMemo {
  const cache: HeadCache = new Map();
  let text = "";
  try {
    text = readFileSync(file, "utf8");
    const value = JSON.parse(text) as Partial<MemoFile>;
    if (value.schema_version === 1 && value.heads && typeof value.heads === "object") {
      for (const [abs, entry] of Object.entries(value.heads)) {
        if (Array.isArray(entry) && typeof entry[0] === "string" && typeof entry[1] === "string") cache.set(abs, { stamp: entry[0], head: entry[1] });
      }
    }
  } catch {
    /* no memo yet, or unreadable: start empty */
  }
  return { file, cache, text };
}

/**
 * Writes the memo's heads (those of the last push's files: the push drops the others from the
 * cache) atomically, when they changed. A memo that cannot be written is left as it was: the
 * next push hashes again. Not fsynced: a lost memo only costs reads.
 */
export async function saveHeadMemo(memo: HeadMemo): Promise<void> {
  const heads: MemoFile["heads"] = {};
  for (const [abs, { stamp, head }] of memo.cache) heads[abs] = [stamp, head];
  const text = JSON.stringify({ schema_version: 1, heads } satisfies MemoFile);
  if (text === memo.text) return;
  try {
    await writeFileAtomic(memo.file, text, { durable: false });
    memo.text = text;
  } catch {
    /* best effort: see above */
  }
}
