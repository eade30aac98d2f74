/** Physical lines of a Control Plane ledger with their byte offsets. */
import { walkRecords } from "@/lib/jsonl/record-walk";
import { textRecords } from "@/lib/jsonl/text-lines";

/** One physical line of a ledger file: 1-based number, byte offset and length (without `\n`), UTF-8 text. */
export type LedgerLine = { line: number; offset: number; bytes: number; text: string };

/**
 * Calls `onLine` with each of a ledger file's lines split on `\n` only — how Python's `for line
 * in f` reads a Control Plane ledger, so a raw U+2028 inside a string (written by
 * `ensure_ascii=False`) stays in its line; numbered by `\n` (lib/jsonl/record-walk reads them).
 * Text is decoded as UTF-8 with replacement; a trailing `\r` is kept (the verifier reports it).
 * A final line without `\n` is passed too. Memory: one chunk plus the longest line.
 * @throws the fs error when the file cannot be read.
 */
export async function forEachLedgerLine(filePath: string, onLine: (line: LedgerLine) => void): Promise<void> {
  const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
  let line = 0;
  let offset = 0;
  await walkRecords(filePath, 0, Infinity, (bytes) => {
    line += 1;
    onLine({ line, offset, bytes: bytes.length, text: decoder.decode(bytes) });
    offset += bytes.length + 1;
  }, { chunkBytes: 1 << 20, asyncReads: true });
}

/** The same split as {@link forEachLedgerLine} over text already in memory (tests, small files). */
export function splitLedgerText(text: string): LedgerLine[] {
  const out: LedgerLine[] = [];
  let offset = 0;
  textRecords(text).forEach(({ text: part }, i) => {
    const bytes = Buffer.byteLength(part, "utf8");
    out.push({ line: i + 1, offset, bytes, text: part });
    offset += bytes + 1;
  });
  return out;
}
