/**
 * The full-text index's words (lib/catalog/trigram-tokens: a trigram's 20-bit bucket written as 4
 * base-32 characters, low 5 bits first) read back as the bucket numbers the PostgreSQL store keeps
 * in `catalog_lines.tokens` (integer[]): one number per word, the same words, so `@>` over them
 * finds exactly the rows FTS5's `MATCH` of the words finds. word-buckets.test.ts checks the
 * decoding against trigram-tokens' own encoding.
 */
import { type PackedWords } from "@/lib/catalog/trigram-tokens";

/** Value of each base-32 character ("0"-"9", "a"-"v") by its char code; -1 elsewhere. */
const DIGIT = new Int8Array(128).fill(-1);
for (const [i, ch] of [..."0123456789abcdefghijklmnopqrstuv"].entries()) DIGIT[ch.charCodeAt(0)] = i;

function digit(code: number): number {
  const d = code < 128 ? DIGIT[code]! : -1;
  if (d < 0) throw new RangeError(`not an index word character: ${String.fromCharCode(code)}`);
  return d;
}

/** The bucket of one index word (as `termTokens` gives it). @throws RangeError for a string that is not one. */
export function wordBucket(word: string): number {
  if (word.length !== 4) throw new RangeError(`not an index word: "${word}"`);
  return digit(word.charCodeAt(0)) | (digit(word.charCodeAt(1)) << 5) | (digit(word.charCodeAt(2)) << 10) | (digit(word.charCodeAt(3)) << 15);
}

/**
 * Line `k`'s words of `packed` (each word 4 characters and a space) as a PostgreSQL integer[]
 * literal, `{b1,b2,…}`: one text parameter per line, cast in SQL, so a batch of lines is bound as
 * one array of literals.
 */
export function bucketLiteral(packed: PackedWords, k: number): string {
  const { bytes, ends } = packed;
  const end = ends[k]!;
  let out = "{";
  for (let o = k === 0 ? 0 : ends[k - 1]!; o + 4 <= end; o += 5) {
    const b = digit(bytes[o]!) | (digit(bytes[o + 1]!) << 5) | (digit(bytes[o + 2]!) << 10) | (digit(bytes[o + 3]!) << 15);
    out += out.length === 1 ? String(b) : `,${b}`;
  }
  return out + "}";
}
