/** Physical lines of a Control Plane ledger with their byte offsets. */
import fs from "node:fs";

/** One physical line of a ledger file: 1-based number, byte offset and length (without `\n`), UTF-8 text. */
export type LedgerLine = { line: number; offset: number; bytes: number; text: string };

/**
 * Streams a ledger file's lines split on `\n` only — how Python's `for line in f` reads a
 * Control Plane ledger, so a raw U+2028 inside a string (written by `ensure_ascii=False`) stays in
 * its line. Text is decoded as UTF-8 with replacement; a trailing `\r` is kept (the verifier
 * reports it). A final line without `\n` is yielded too. Memory: one chunk plus the longest line.
 * @throws the fs error when the file cannot be read.
 */
export async function* streamLedgerLines(filePath: string, chunkBytes = 1 << 20): AsyncGenerator<LedgerLine> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let offset = 0;
  let line = 0;
  const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
  for await (const chunk of fs.createReadStream(filePath, { highWaterMark: chunkBytes })) {
    const buf = chunk as Buffer;
    let start = 0;
    for (let nl = buf.indexOf(10, start); nl !== -1; nl = buf.indexOf(10, start)) {
      const piece = buf.subarray(start, nl);
      const whole = pending.length ? Buffer.concat([...pending, piece]) : piece;
      line += 1;
      yield { line, offset, bytes: whole.length, text: decoder.decode(whole) };
      offset += whole.length + 1;
      pending = [];
      pendingBytes = 0;
      start = nl + 1;
    }
    if (start < buf.length) {
      pending.push(buf.subarray(start));
      pendingBytes += buf.length - start;
    }
  }
  if (pendingBytes > 0) {
    const whole = Buffer.concat(pending);
    yield { line: line + 1, offset, bytes: whole.length, text: decoder.decode(whole) };
  }
}

/** The same split as {@link streamLedgerLines} over text already in memory (tests, small files). */
export function splitLedgerText(text: string): LedgerLine[] {
  const out: LedgerLine[] = [];
  let offset = 0;
  const parts = text.split("\n");
  if (parts[parts.length - 1] === "") parts.pop();
  parts.forEach((part, i) => {
    const bytes = Buffer.byteLength(part, "utf8");
    out.push({ line: i + 1, offset, bytes, text: part });
    offset += bytes + 1;
  });
  return out;
}
