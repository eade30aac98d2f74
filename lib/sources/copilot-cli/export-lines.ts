/** A Copilot CLI session's workspace lines: its `events.jsonl`, copied as is (agent-formats.md §2). */
import { readFileSync, statSync } from "node:fs";

import type { ExportedLines, FoundSession } from "@/lib/sources/common/agent-source";
import { lazyByteCopyLines } from "@/lib/jsonl/text-lines";

/**
 * The physical lines (contract §1.6) of the session's `events.jsonl`, without terminators: the
 * file is already one event a line, so the workspace file is a byte copy of it (a half-written
 * last line included, as the CLI left it), and its `bytes` are given when they are those lines
 * each followed by `\n` (prepare copies the file as read), its lines then decoded only when read
 * (lib/jsonl/text-lines lazyByteCopyLines: prepare's turns come from the bytes, prepare-turns.ts). An
 * unreadable file gives no lines and one warning. Read on the calling thread: sessions are small
 * and many (issue 38: a thread-pool round trip per step cost more than the read).
 */
export async function exportCopilotLines(session: FoundSession): Promise<ExportedLines> {
  try {
    const { size, mtimeMs, mode } = statSync(session.sourcePath);
    const read = readFileSync(session.sourcePath);
    const lines = lazyByteCopyLines(read);
    // The file as read is the workspace file: prepare has the kernel copy it (ExportedLines.copyOf).
    return { ...lines, warnings: [], ...(lines.bytes === read && read.length === size ? { copyOf: { path: session.sourcePath, size, mtimeMs, mode } } : {}) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return { lines: [], warnings: [{ file: session.sourcePath, where: "file", problem: `unreadable events.jsonl: ${code}` }] };
  }
}
