/** Test range task: `countRange` of the range mapped on a worker this thread starts (a worker's own worker). */
import { threadId } from "node:worker_threads";

import { countRange } from "@/lib/jsonl/__fixtures__/count-range";
import { RangePool } from "@/lib/jsonl/range-pool";
import { startWorker, type LineRange } from "@/lib/jsonl/workers";

/** The inner worker's thread id and records, with the id of the thread that started it. */
export async function nestedCount(filePath: string, range: LineRange, tag: string): Promise<{ outer: number; inner: number; records: [number, number][] }> {
  const pool = new RangePool<string, Awaited<ReturnType<typeof countRange>>>(() => startWorker(import.meta.url, "./count-stream-worker.ts"), 1, { workersOnly: true });
  try {
    let inner = { threadId: -1, records: [] as [number, number][] };
    await pool.map(countRange, filePath, [range], tag, (r) => (inner = r));
    return { outer: threadId, inner: inner.threadId, records: inner.records };
  } finally {
    await pool.close();
  }
}
