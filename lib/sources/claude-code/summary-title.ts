/** A Claude Code session's title from its own `summary` records (contract §2.7: foreign summaries title other sessions). */
import fs from "node:fs/promises";

import type { LineWindows } from "@/lib/jsonl/line-windows";
import { parseJsonObject } from "@/lib/sources/common/json-object";
import { nonBlankString } from "@/lib/sources/common/py-compat";

/** Lines from the start read for `summary` records (Claude Code writes them before the conversation). */
const SUMMARY_HEAD_LINES = 64;
/** Bytes read at a time while looking for a summary's leaf in the file. */
const SEARCH_CHUNK_BYTES = 1 << 20;

const SUMMARY_TYPE = Buffer.from('"summary"');

/** The title of the last `summary` record among the file's first lines whose `leafUuid` is a record of the file, else null. */
export async function claudeSummaryTitle(windows: LineWindows): Promise<string | null> {
  const summaries: { title: string; leaf: string }[] = [];
  for (let line = 1; line <= Math.min(SUMMARY_HEAD_LINES, windows.index.lineCount); line++) {
    const bytes = await windows.line(line, "end");
    if (bytes.indexOf(SUMMARY_TYPE) === -1) continue;
    const record = parseJsonObject(bytes.toString("utf8"));
    const title = record?.type === "summary" ? nonBlankString(record.summary) : null;
    const leaf = record ? nonBlankString(record.leafUuid) : null;
    if (title !== null && leaf !== null) summaries.push({ title: title.trim(), leaf });
  }
  if (summaries.length === 0) return null;
  const local = await recordsInFile(windows.filePath, summaries.map((s) => s.leaf));
  return summaries.findLast((s) => local.has(s.leaf))?.title ?? null;
}

/** Which of `uuids` name a record of the file (`"uuid":"<id>"` as Claude Code writes it), in one read of the file that stops when all are found. */
async function recordsInFile(filePath: string, uuids: string[]): Promise<Set<string>> {
  const needles = new Map([...new Set(uuids)].map((u) => [u, Buffer.from(`"uuid":${JSON.stringify(u)}`)]));
  const found = new Set<string>();
  const overlap = Math.max(...[...needles.values()].map((n) => n.length)) - 1;
  const file = await fs.open(filePath, "r");
  try {
    const buf = Buffer.alloc(SEARCH_CHUNK_BYTES + overlap);
    let carried = 0;
    let position = 0;
    for (;;) {
      const { bytesRead } = await file.read(buf, carried, SEARCH_CHUNK_BYTES, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const view = buf.subarray(0, carried + bytesRead);
      for (const [uuid, needle] of needles) {
        if (view.indexOf(needle) !== -1) {
          found.add(uuid);
          needles.delete(uuid);
        }
      }
      if (needles.size === 0) break;
      carried = Math.min(overlap, view.length);
      view.copy(buf, 0, view.length - carried);
    }
  } finally {
    await file.close();
  }
  return found;
}
