/** The cut-string convention: a long JSON string kept as its prefix, U+0000 and its byte length. */
/**
 * The cut-string convention of byte-level JSONL readers (lib/sources/common/skim): a long string value
 * is kept as `<prefix>\u0000<raw bytes>` — its first raw bytes (never cut inside a UTF-8 sequence
 * or an escape), U+0000, then the decimal byte length of the whole literal between its quotes —
 * so a reader builds only what it needs of tool output or file content and re-reads the one line
 * when it needs a cut string whole (issues 9, 13).
 */

const BACKSLASH = 0x5c;

/** Marks a cut string: U+0000 never appears unescaped in a JSON text, so a real string holding it is rare. */
export const CUT_MARK = "\u0000";

/**
 * A cut point at or before `at` (inside a string literal whose content starts at `from`) that
 * splits neither a UTF-8 sequence nor an escape: back over continuation bytes to a lead byte,
 * then before any backslash run in the last 6 bytes (the longest escape is `\uXXXX`), so
 * `bytes[from, cut)` decodes to complete text. Pure.
 */
export function safeCut(bytes: Uint8Array, from: number, at: number): number {
  let cut = at;
  while (cut > from && (bytes[cut]! & 0xc0) === 0x80) cut--;
  for (let i = Math.max(from, cut - 6); i < cut; i++) {
    if (bytes[i] === BACKSLASH) {
      let run = i;
      while (run > from && bytes[run - 1] === BACKSLASH) run--;
      return run;
    }
  }
  return cut;
}
