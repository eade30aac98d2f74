// One document's lines (a transcript, subagent transcript or tool result) added to the full-text index, from where the index stopped when the file only grew.

import { createHash } from "node:crypto";
import fs from "node:fs/promises";

import { type DocFormat, type ExtractedLines, type KnownCalls, lineExtractor, resumableFormat } from "@/lib/catalog/extract-lines";
import type { CatalogStore } from "@/lib/catalog/store";
import { streamLineBytes } from "@/lib/jsonl/stream-line-bytes";

/** Bytes at the head of a session file whose hash tells a grown file from a rewritten one. */
export const HEAD_BYTES = 4096;
/** FTS rows inserted per transaction while a session is indexed. */
const BATCH_LINES = 2000;

/**
 * Adds a document's lines (a session's transcript, subagent transcript or persisted tool result:
 * `search_docs` row `docId`) to the full-text index, whole, with each line's `line_meta` (byte
 * span, role, error, time, tools, files), its lines read as `format` (lib/catalog/extract-lines'
 * `docFormat`): from where it stopped when the file grew (same head bytes, not smaller) and its
 * lines' facts are their own (`resumableFormat`: not an agent session's), else from the start. Only newline-terminated lines are taken; a line still
 * being written is taken when it ends. Every batch writes the document's progress (bytes, lines,
 * head hash) with its rows, so whatever a commit or a crash cuts, the next run resumes exactly
 * after the last stored line. Returns the lines added, or null when the document's row went away
 * (a rows refresh dropped its session between two transactions): nothing more is written for it.
 * @throws the fs error when the file cannot be read.
 */
export async function indexLines(store: CatalogStore, docId: number, filePath: string, format: DocFormat, prefetched?: Promise<ExtractedLines | null>): Promise<number | null> {
  const at = await store.docProgress(docId);
  if (!at) return null;
  const st = await fs.stat(filePath);
  // The file's head as it is now: it must hash as stored for the file to have only grown.
  const fileHead = at.indexed_bytes > 0 && st.size >= at.indexed_bytes && resumableFormat(format) ? await readHead(filePath) : null;
  const resumable = fileHead !== null && sha256(fileHead.subarray(0, Math.min(HEAD_BYTES, at.indexed_bytes))) === at.head_sha;
  const offset = resumable ? at.indexed_bytes : 0;
  const line = resumable ? at.indexed_lines : 0;
  if (!resumable && at.indexed_bytes > 0) await store.resetDoc(docId);
  // Writes extracted lines BATCH_LINES a transaction, each with the document's progress after its
  // last line (the last one: after every line seen, blank ones at the end included).
  let gone = false;
  const write = async (ex: ExtractedLines) => {
    const n = ex.lines.length;
    const headOf = (bytes: number) => sha256(ex.head.subarray(0, Math.min(HEAD_BYTES, bytes)));
    for (let from = 0; ; from += BATCH_LINES) {
      const to = Math.min(n, from + BATCH_LINES);
      const [bytes, lastLine] = to === n ? [ex.consumed, ex.lastLine] : [ex.ends[to - 1]!, ex.lines[to - 1]!];
      // No document row: it was dropped (its session with it) between two transactions.
      if (!(await store.addLines(docId, { extracted: ex, from, to, progress: { indexed_bytes: bytes, indexed_lines: lastLine, head_sha: headOf(bytes) } }))) {
        gone = true;
        return;
      }
      if (to === n) return;
      await store.commitIfDue();
    }
  };
  const extracted = offset === 0 && prefetched ? await prefetched : null;
  // Extracted ahead from the file at its present size (else read here, as a grown file is).
  if (extracted && extracted.size === st.size) {
    await write(extracted);
    return gone ? null : extracted.lastLine;
  }
  // Physical lines as the viewer numbers them (contract §1.6: a raw U+2028 in a string ends a line
  // too), from where the index stopped; the head is hashed from the first read when from the start.
  const lines = lineExtractor(offset, line, offset === 0 ? null : fileHead, HEAD_BYTES, st.size, format, resumable ? await knownCalls(store, docId) : undefined);
  const range = offset > 0 ? { startByte: offset, endByte: Number.POSITIVE_INFINITY, firstLine: line + 1, upToFileEnd: true } : undefined;
  // Reads sized to the file (most sessions are small): 64 KiB to 1 MiB.
  const chunkBytes = Math.min(1 << 20, Math.max(1 << 16, st.size - offset));
  for await (const l of streamLineBytes(filePath, { range, chunkBytes, headroomBytes: 1 << 16 })) {
    if (!lines.push(l.line, l.bytes, l.start, l.end, l.next)) break;
    if (lines.count >= BATCH_LINES) await write(lines.take());
    if (gone) return null;
  }
  await write(lines.take());
  return gone ? null : lines.lastLine - (resumable ? at.indexed_lines : 0);
}

/** Calls whose results may still come, when a document resumes: those of its last lines with calls. */
const KNOWN_CALL_LINES = 500;

/**
 * The tool calls of a document's last indexed lines, by call id (the tool and files its later
 * results are filed under). A call with a single tool is exact; a line calling several tools
 * gives each call every tool and file of the line (one line's calls are nearly always one tool).
 */
async function knownCalls(store: CatalogStore, docId: number): Promise<KnownCalls> {
  const known: KnownCalls = new Map();
  for (const row of await store.lastCalls(docId, KNOWN_CALL_LINES)) {
    const tools = row.tools ? row.tools.split("\n") : [];
    for (const id of row.calls.split("\n")) known.set(id, { name: tools[0] ?? "", files: row.files ? row.files.split("\n") : [] });
  }
  return known;
}

/** The first {@link HEAD_BYTES} bytes of a file (fewer when it is shorter). */
async function readHead(filePath: string): Promise<Buffer> {
  const fh = await fs.open(filePath, "r");
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await fh.read(buf, 0, HEAD_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
