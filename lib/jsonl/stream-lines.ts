import fs from "node:fs";

export type PhysicalLineText = { line: number; text: string };

const BREAK_GLOBAL = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g;

/**
 * Streams a file's physical lines (contract §1.6: UTF-8 with replacement, Python
 * `splitlines` boundaries), 1-based, without holding the whole file in memory.
 * Memory: one read chunk (1 MiB) plus the longest line.
 * @throws the fs error when the file cannot be read.
 */
export async function* streamPhysicalLines(filePath: string, chunkBytes = 1 << 20): AsyncGenerator<PhysicalLineText> {
  // ignoreBOM keeps a leading U+FEFF like Python's "utf-8" codec does.
  const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
  let carry = "";
  let line = 0;
  for await (const chunk of fs.createReadStream(filePath, { highWaterMark: chunkBytes })) {
    carry += decoder.decode(chunk as Buffer, { stream: true });
    let consumed = 0;
    BREAK_GLOBAL.lastIndex = 0;
    for (let m = BREAK_GLOBAL.exec(carry); m; m = BREAK_GLOBAL.exec(carry)) {
      // A lone "\r" at the end may be the first half of "\r\n": wait for more input.
      if (m[0] === "\r" && m.index === carry.length - 1) break;
      line += 1;
      yield { line, text: carry.slice(consumed, m.index) };
      consumed = m.index + m[0].length;
    }
    carry = carry.slice(consumed);
  }
  carry += decoder.decode();
  if (carry.length === 0) return;
  BREAK_GLOBAL.lastIndex = 0;
  let consumed = 0;
  for (let m = BREAK_GLOBAL.exec(carry); m; m = BREAK_GLOBAL.exec(carry)) {
    line += 1;
    yield { line, text: carry.slice(consumed, m.index) };
    consumed = m.index + m[0].length;
  }
  if (consumed < carry.length) yield { line: line + 1, text: carry.slice(consumed) };
}
