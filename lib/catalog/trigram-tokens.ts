/**
 * The full-text index's terms: each distinct trigram of a line's case-folded text, hashed into
 * 2^20 buckets and written as a 4-character base-32 word ("0k3f"). The index (`lines_fts`, FTS5
 * with the `ascii` tokenizer) then holds one word per distinct trigram instead of one per
 * character (FTS5's own trigram tokenizer): about a fifth of the words for the same lines, so a
 * fifth of the write cost and of the size (issue 37: bench/search.bench.ts). A query term's words
 * are made by the same function from the same folding, so a line holding the term always holds
 * its words (a hash shared by two trigrams only adds candidates, which the line check drops).
 */
import { foldCase } from "@/lib/catalog/search-query";

/** Bits of a trigram's bucket: 2^20 words in the index's vocabulary. */
const BITS = 20;
const ALPHABET = new TextEncoder().encode("0123456789abcdefghijklmnopqrstuv");
/** The generation each bucket was last seen in ({@link lineTokens} counts generations per call). */
const seen = new Int32Array(1 << BITS);
let generation = 0;
/** Room for every bucket once: 4 characters and a space each. */
const out = new Uint8Array(5 << BITS);

/** The bucket of the trigram of UTF-16 code units `a`, `b`, `c` (already folded). */
function bucket(a: number, b: number, c: number): number {
  return (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b) ^ Math.imul(c, 0xc2b2ae35)) >>> (32 - BITS);
}

/** Calls `each` with the bucket of every distinct trigram of `text` folded (lib/catalog/search-query's foldCase), by UTF-16 code unit. */
function eachBucket(text: string, each: (h: number) => void): void {
  const folded = foldCase(text);
  generation = (generation + 1) | 0;
  if (generation === 0) {
    seen.fill(0);
    generation = 1;
  }
  let a = 0;
  let b = 0;
  for (let i = 0; i < folded.length; i++) {
    const c = folded.charCodeAt(i);
    if (i >= 2) {
      const h = bucket(a, b, c);
      if (seen[h] !== generation) {
        seen[h] = generation;
        each(h);
      }
    }
    a = b;
    b = c;
  }
}

/**
 * The index words of a line's visible text: one per distinct trigram, space-separated ("" for a
 * text under 3 code units). Runs on the extraction worker, beside the catalog's writer.
 */
export function lineTokens(text: string): string {
  return Buffer.from(out.buffer, out.byteOffset, writeTokens(text)).toString("latin1");
}

/** Writes the index words of `text` into {@link out} from its start; returns their bytes. */
function writeTokens(text: string): number {
  let o = 0;
  eachBucket(text, (h) => {
    out[o] = ALPHABET[h & 31]!;
    out[o + 1] = ALPHABET[(h >>> 5) & 31]!;
    out[o + 2] = ALPHABET[(h >>> 10) & 31]!;
    out[o + 3] = ALPHABET[(h >>> 15) & 31]!;
    out[o + 4] = 32;
    o += 5;
  });
  return o;
}

/**
 * The index words of many lines packed in one byte array (Latin-1, {@link lineTokens}'s words per
 * line, back to back) with each line's end offset: a worker hands a batch over by moving one
 * buffer, where a list of strings is copied string by string (a fifth of an extraction's time).
 * The writer binds each line's bytes as they are ({@link PackedWords.wordsAt}).
 */
export class WordPacker {
  private bytes = new Uint8Array(1 << 16);
  private length = 0;
  private ends: number[] = [];

  /** Appends the words of one line's visible text. */
  add(text: string): void {
    const o = writeTokens(text);
    if (this.length + o > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + o));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    this.bytes.set(out.subarray(0, o), this.length);
    this.length += o;
    this.ends.push(this.length);
  }

  /** The lines added since the last take, packed in buffers of their own (transferable). */
  take(): PackedWords {
    const packed = { bytes: this.bytes.slice(0, this.length), ends: Uint32Array.from(this.ends) };
    this.length = 0;
    this.ends = [];
    return packed;
  }
}

/** Lines' words packed by {@link WordPacker}: line `k`'s words are `bytes[ends[k - 1] ?? 0, ends[k])`. */
export type PackedWords = { bytes: Uint8Array; ends: Uint32Array };

/** Line `k`'s words of `packed` as a Buffer over the same bytes (no copy), bound as-is by the writer. */
export function wordsAt(packed: PackedWords, k: number): Buffer {
  const start = k === 0 ? 0 : packed.ends[k - 1]!;
  return Buffer.from(packed.bytes.buffer, packed.bytes.byteOffset + start, packed.ends[k]! - start);
}

/** The index words a line holding `term` (case-insensitively) must hold: distinct, none for a term under 3 code units. */
export function termTokens(term: string): string[] {
  const words: string[] = [];
  eachBucket(term, (h) => words.push(String.fromCharCode(ALPHABET[h & 31]!, ALPHABET[(h >>> 5) & 31]!, ALPHABET[(h >>> 10) & 31]!, ALPHABET[(h >>> 15) & 31]!)));
  return words;
}
