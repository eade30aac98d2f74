/**
 * A legacy Gemini CLI chat (`.json`, one object `{…, "messages": [ {…}, … ]}`, usually
 * pretty-printed) cut into its workspace lines by one pass over its bytes (issue 38 speed): no
 * `JSON.parse` of the document, no `JSON.stringify` of its messages.
 */
import { isUtf8 } from "node:buffer";

import { DATA_OFFSET, JsonScanMemory } from "@/lib/jsonl/json-scan";
import type { ExportScratch } from "@/lib/sources/common/agent-source";

/** The scan memory of this thread (grown to the largest chat read, up to {@link KEEP_MEMORY_BYTES}). */
let shared: JsonScanMemory | null = null;
/** A chat larger than this is scanned in a memory of its own, dropped after it (the shared one never shrinks). */
const KEEP_MEMORY_BYTES = 64 << 20;

/** `"messages"`, as bytes: the top-level key whose elements become lines. */
const MESSAGES_KEY = Buffer.from('"messages"');
/** U+0085, U+2028, U+2029 in UTF-8: raw in a JSON string, yet line breaks to contract §1.6. */
const RAW_BREAKS = [Buffer.from([0xc2, 0x85]), Buffer.from([0xe2, 0x80, 0xa8]), Buffer.from([0xe2, 0x80, 0xa9])];

/**
 * The workspace lines of a legacy chat (line 1 = the object without `messages`, then one line per
 * element of `messages`: lib/sources/gemini-cli/export-lines) found by one pass over `data`:
 * the document's grammar is checked by the SIMD scan kernel (lib/jsonl/json-scan `valueEnd`, as
 * strict as `JSON.parse`), and each line is its value's bytes with the whitespace outside strings
 * removed, byte for byte otherwise (the original escapes kept), so a line parses to the value
 * `JSON.parse` of the document gives there (decoded when first read); `bytes` are the lines, each followed by `\n`. Null
 * when `data` is not read that way — not UTF-8, a raw U+0085, U+2028 or U+2029 (a line break to
 * contract §1.6, which `jsonLine` escapes), not valid JSON, not an object, no `messages` list,
 * `messages` twice, a top-level key holding an escape — for the caller to parse the document
 * whole (and warn or escape as it does). `bytes` are built in `scratch`'s slot 1 when given. Never throws.
 */
export function scanLegacyChat(data: Buffer, scratch?: ExportScratch): { lines: string[]; bytes?: Buffer } | null {
  if (!isUtf8(data) || RAW_BREAKS.some((needle) => data.includes(needle))) return null;
  const memory = data.length > KEEP_MEMORY_BYTES ? new JsonScanMemory() : (shared ??= new JsonScanMemory());
  const b = memory.load(data, 0, data.length);
  const end = DATA_OFFSET + data.length;
  // Bytes past `end` are the memory's older content: every look is bounded by `end`.
  const at = (i: number): number => (i < end ? b[i]! : -1);

  /** [start, end) of each top-level member but `messages` (key to value), then of each message. */
  const members: number[] = [];
  let messages: number[] | null = null;
  let p = skipSpace(b, DATA_OFFSET, end);
  if (at(p) !== 0x7b) return null;
  p = skipSpace(b, p + 1, end);
  if (at(p) === 0x7d) p++;
  else {
    for (;;) {
      if (at(p) !== 0x22) return null;
      const keyEnd = memory.stringEnd(p, end);
      if (keyEnd < 0 || b.subarray(p, keyEnd).includes(0x5c)) return null;
      const isMessages = keyEnd - p === MESSAGES_KEY.length && b.compare(MESSAGES_KEY, 0, MESSAGES_KEY.length, p, keyEnd) === 0;
      let q = skipSpace(b, keyEnd, end);
      if (at(q) !== 0x3a) return null;
      q = skipSpace(b, q + 1, end);
      if (isMessages) {
        if (messages !== null || at(q) !== 0x5b) return null;
        messages = [];
        q = skipSpace(b, q + 1, end);
        if (at(q) === 0x5d) q++;
        else {
          for (;;) {
            const valueEnd = memory.valueEnd(q, end);
            if (valueEnd < 0) return null;
            messages.push(q, valueEnd);
            q = skipSpace(b, valueEnd, end);
            if (at(q) === 0x2c) q = skipSpace(b, q + 1, end);
            else if (at(q) === 0x5d) {
              q++;
              break;
            } else return null;
          }
        }
      } else {
        const valueEnd = memory.valueEnd(q, end);
        if (valueEnd < 0) return null;
        members.push(p, valueEnd);
        q = valueEnd;
      }
      p = skipSpace(b, q, end);
      if (at(p) === 0x2c) p = skipSpace(b, p + 1, end);
      else if (at(p) === 0x7d) {
        p++;
        break;
      } else return null;
    }
  }
  if (skipSpace(b, p, end) !== end || messages === null) return null;

  // Every byte kept is one of the document's, plus `{`, `}` and a comma per member, and a `\n` per line.
  const bound = data.length + members.length / 2 + messages.length / 2 + 3;
  const out = scratch?.buffer(1, bound) ?? Buffer.allocUnsafe(bound);
  const lineEnds: number[] = [];
  let o = 0;
  out[o++] = 0x7b;
  for (let k = 0; k < members.length; k += 2) {
    if (k > 0) out[o++] = 0x2c;
    o = minified(memory, b, members[k]!, members[k + 1]!, out, o);
  }
  out[o++] = 0x7d;
  lineEnds.push(o);
  out[o++] = 0x0a;
  for (let k = 0; k < messages.length; k += 2) {
    o = minified(memory, b, messages[k]!, messages[k + 1]!, out, o);
    lineEnds.push(o);
    out[o++] = 0x0a;
  }
  // Decoded only when read: prepare's turns come from the bytes (prepare-turns.ts).
  let lines: string[] | null = null;
  const decode = (): string[] => {
    const decoded = new Array<string>(lineEnds.length);
    let start = 0;
    for (let i = 0; i < lineEnds.length; i++) {
      decoded[i] = out.toString("utf8", start, lineEnds[i]);
      start = lineEnds[i]! + 1;
    }
    return decoded;
  };
  return {
    get lines(): string[] {
      return (lines ??= decode());
    },
    bytes: out.subarray(0, o),
  };
}

/** Index of the first byte at or after `i` that is not JSON whitespace (space, tab, `\n`, `\r`), at most `end`. */
function skipSpace(b: Buffer, i: number, end: number): number {
  while (i < end) {
    const c = b[i]!;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}

/**
 * Copies the valid JSON text `b[start, end)` to `out` at `o` without the whitespace outside its
 * strings (each string skipped whole by the scan kernel; runs between whitespace copied at once);
 * returns the index past what it wrote.
 */
function minified(memory: JsonScanMemory, b: Buffer, start: number, end: number, out: Buffer, o: number): number {
  let run = start;
  let i = start;
  while (i < end) {
    const c = b[i]!;
    if (c === 0x22) {
      const after = memory.stringEnd(i, end);
      // The text was checked whole: a string always closes (else the rest is copied as it is).
      i = after < 0 ? end : after;
    } else if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      o = copyRun(b, run, i, out, o);
      i = skipSpace(b, i + 1, end);
      run = i;
    } else i++;
  }
  return copyRun(b, run, end, out, o);
}

/** Copies `b[start, end)` to `out` at `o`, returns `o` past it: a short run byte by byte (`Buffer.copy` makes a view per call). */
function copyRun(b: Buffer, start: number, end: number, out: Buffer, o: number): number {
  if (end - start > 48) return o + b.copy(out, o, start, end);
  for (let i = start; i < end; i++) out[o++] = b[i]!;
  return o;
}
