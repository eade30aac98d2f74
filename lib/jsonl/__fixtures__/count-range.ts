/** Test range task: every record's line and length, with the thread and priority that read it. */
import { getPriority } from "node:os";
import { isMainThread, threadId } from "node:worker_threads";

import type { LineRange } from "@/lib/jsonl/workers";
import { walkRecords } from "@/lib/jsonl/record-walk";

/**
 * Test task: the physical line and byte length of every `\n` record of a range, and the thread
 * that read it, with that thread's CPU priority (its nice value). With the tag `"die"`, a worker given the first range ends (exit code 1) instead.
 */
export async function countRange(filePath: string, range: LineRange, tag: string): Promise<{ tag: string; threadId: number; priority: number; records: [number, number][] }> {
  if (tag === "die" && !isMainThread && range.firstLine === 1) process.exit(1);
  const records: [number, number][] = [];
  await walkRecords(filePath, range.startByte, range.endByte, (bytes, line) => void records.push([range.firstLine - 1 + line, bytes.length]), { chunkBytes: 64, asyncReads: true });
  return { tag, threadId, priority: getPriority(), records };
}
