/** A Copilot CLI session's workspace lines: its `events.jsonl`, copied as is (agent-formats.md §2). */
import { lazyByteCopyLines } from "@/lib/jsonl/text-lines";
import type { ExportedLines, ExportScratch, FoundSession } from "@/lib/sources/common/agent-source";
import { readAsRead } from "@/lib/sources/common/read-as-read";

/**
 * The physical lines (contract §1.6) of the session's `events.jsonl`, without terminators: the
 * file is already one event a line, so the workspace file is a byte copy of it (a half-written
 * last line included, as the CLI left it), and its `bytes` are given when they are those lines
 * each followed by `\n` (prepare copies the file as read), its lines then decoded only when read
 * (lib/jsonl/text-lines lazyByteCopyLines: prepare's turns come from the bytes, prepare-turns.ts). An
 * unreadable file gives no lines and one warning. With a `scratch` (prepare's), read into its slot
 * 0. Read on the calling thread: sessions are small and many (issue 38: a thread-pool round trip
 * per step cost more than the read).
 */
export async function exportCopilotLines(session: FoundSession, scratch?: ExportScratch): Promise<ExportedLines> {
  const read = readAsRead(session.sourcePath, scratch);
  if ("error" in read) return { lines: [], warnings: [{ file: session.sourcePath, where: "file", problem: `unreadable events.jsonl: ${read.error}` }] };
  const { bytes, asRead } = read;
  const lines = lazyByteCopyLines(bytes);
  // The file as read is the workspace file: prepare has the kernel copy it (ExportedLines.copyOf).
  return Object.assign(lines, { warnings: [] }, lines.bytes === bytes && asRead.size === bytes.length ? { copyOf: asRead } : {});
}
