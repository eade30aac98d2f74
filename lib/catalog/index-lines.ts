// One document's lines (a transcript, subagent transcript or tool result) added to the full-text index, from where the index stopped when the file only grew.

import { createHash } from "node:crypto";
import fs from "node:fs/promises";

import type Database from "better-sqlite3";

import { lineRowid } from "@/lib/catalog/db-schema";
import { deleteDocLines } from "@/lib/catalog/drop-rows";
import { type DocFormat, type ExtractedLines, type KnownCalls, lineExtractor, resumableFormat } from "@/lib/catalog/extract-lines";
import { atomically, commitIfDue, stmt } from "@/lib/catalog/transactions";
import { wordsAt } from "@/lib/catalog/trigram-tokens";
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
export async function indexLines(db: Database.Database, docId: number, filePath: string, format: DocFormat, prefetched?: Promise<ExtractedLines | null>): Promise<number | null> {
  const at = stmt(db, "SELECT indexed_bytes, indexed_lines, head_sha FROM search_docs WHERE id = ?").get(docId) as { indexed_bytes: number; indexed_lines: number; head_sha: string | null } | undefined;
  if (!at) return null;
  const st = await fs.stat(filePath);
  // The file's head as it is now: it must hash as stored for the file to have only grown.
  const fileHead = at.indexed_bytes > 0 && st.size >= at.indexed_bytes && resumableFormat(format) ? await readHead(filePath) : null;
  const resumable = fileHead !== null && sha256(fileHead.subarray(0, Math.min(HEAD_BYTES, at.indexed_bytes))) === at.head_sha;
  const offset = resumable ? at.indexed_bytes : 0;
  const line = resumable ? at.indexed_lines : 0;
  if (!resumable && at.indexed_bytes > 0) {
    atomically(db, () => {
      deleteDocLines(db, docId);
      stmt(db, "UPDATE search_docs SET indexed_bytes = 0, indexed_lines = 0, head_sha = NULL WHERE id = ?").run(docId);
    });
  }
  const insertLine = stmt(db, "INSERT INTO lines_fts (rowid, body) VALUES (?, ?)");
  const insertMeta = stmt(db, "INSERT OR REPLACE INTO line_meta (rowid, start, len, role, error, time, tools, files, calls) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const progress = stmt(db, "UPDATE search_docs SET indexed_bytes = ?, indexed_lines = ?, head_sha = ? WHERE id = ?");
  // Writes extracted lines BATCH_LINES a transaction, each with the document's progress after its
  // last line (the last one: after every line seen, blank ones at the end included).
  let gone = false;
  const write = async (ex: ExtractedLines) => {
    const n = ex.lines.length;
    const headOf = (bytes: number) => sha256(ex.head.subarray(0, Math.min(HEAD_BYTES, bytes)));
    for (let from = 0; !gone; from += BATCH_LINES) {
      const to = Math.min(n, from + BATCH_LINES);
      atomically(db, () => {
        const [bytes, lastLine] = to === n ? [ex.consumed, ex.lastLine] : [ex.ends[to - 1]!, ex.lines[to - 1]!];
        // The progress first, in the batch's transaction: no row means the document was dropped.
        if (progress.run(bytes, lastLine, headOf(bytes), docId).changes === 0) {
          gone = true;
          return;
        }
        for (let k = from; k < to; k++) {
          const rowid = lineRowid(docId, ex.lines[k]!);
          const time = ex.times[k]!;
          // The words as bytes (a blob FTS5 reads as text): no string made per line.
          insertLine.run(rowid, wordsAt(ex.words, k));
          insertMeta.run(rowid, ex.starts[k], ex.lens[k], ex.roles[k], ex.errors[k], Number.isNaN(time) ? null : Math.round(time), ex.tools[k] || null, ex.files[k] || null, ex.calls[k] || null);
        }
      });
      if (to === n) return;
      await commitIfDue(db);
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
  const lines = lineExtractor(offset, line, offset === 0 ? null : fileHead, HEAD_BYTES, st.size, format, resumable ? knownCalls(db, docId) : undefined);
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
function knownCalls(db: Database.Database, docId: number): KnownCalls {
  const rows = stmt(db, "SELECT tools, files, calls FROM line_meta WHERE rowid BETWEEN ? AND ? AND calls IS NOT NULL ORDER BY rowid DESC LIMIT ?").all(lineRowid(docId, 0), lineRowid(docId, 0xffffffff), KNOWN_CALL_LINES) as { tools: string | null; files: string | null; calls: string }[];
  const known: KnownCalls = new Map();
  for (const row of rows.reverse()) {
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
