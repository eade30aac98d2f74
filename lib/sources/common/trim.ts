/** Byte-bounded previews for compact session records (seed 000 compact trimming policy). */
/**
 * Byte-bounded previews for compact session records (seed 000 "Compact trimming policy",
 * contract §4.2). All sizes are UTF-8 bytes. Lone UTF-16 surrogates are encoded the way
 * Python's `backslashreplace` does (`\udXXX` as six ASCII bytes), so byte counts match
 * prompt-diary; cuts drop partial code points so a preview never holds a broken character.
 */

/** Tool-result payloads of at most this many UTF-8 bytes (1 KiB) pass through untrimmed. */
export const SHORT_TOOL_RESULT_BYTES = 1024;

/** Maximum UTF-8 bytes kept from the start of a trimmed text. */
export const PREVIEW_HEAD_BYTES = 320;

/** Maximum UTF-8 bytes kept from the end of a trimmed text (not used for tool inputs). */
export const PREVIEW_TAIL_BYTES = 160;

/** Elision marker placed after the head (and before the tail) of every trimmed text. */
export const TRIM_MARKER = "\n...[trimmed]...\n";

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * UTF-8 bytes of `text`, with each lone surrogate written as its `\uXXXX` escape
 * (Python `text.encode("utf-8", errors="backslashreplace")`).
 */
export function encodeUtf8Lossless(text: string): Buffer {
  if (isWellFormed(text)) return Buffer.from(text, "utf8");
  const safe = text.replace(LONE_SURROGATE, (s) => `\\u${s.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return Buffer.from(safe, "utf8");
}

// NOTE: the regex scan dominated compact reads (issue 2 bench); well-formed text, the common
// case, skips it. String.prototype.isWellFormed is in Node 20 but not in the ES2023 typings.
function isWellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/** UTF-8 byte length of `text` as {@link encodeUtf8Lossless} counts it. */
export function utf8ByteLength(text: string): number {
  return isWellFormed(text) ? Buffer.byteLength(text, "utf8") : encodeUtf8Lossless(text).length;
}

/**
 * Keeps at most `head` bytes of `text` plus {@link TRIM_MARKER}, and, when `tail > 0` and the
 * text is longer than `head + tail` bytes, the last `tail` bytes after the marker.
 * Texts of at most `head` bytes come back unchanged with `truncated: false`.
 * Source: prompt-diary classic `_bounded_preview` (contract §4.2).
 */
export function boundedPreview(text: string, head: number, tail: number, total = utf8ByteLength(text)): { text: string; truncated: boolean } {
  if (total <= head) return { text, truncated: false };
  // Encode only the ends: `n` UTF-16 units always hold at least `n` UTF-8 bytes, and a slice
  // widened past a split surrogate pair encodes to the same bytes as the whole text does there.
  const headText = decodeHead(encodeUtf8Lossless(text.slice(0, widenEnd(text, head))), head);
  if (tail <= 0 || total <= head + tail) return { text: headText + TRIM_MARKER, truncated: true };
  const tailSlice = text.slice(widenStart(text, text.length - tail));
  return { text: headText + TRIM_MARKER + decodeTail(encodeUtf8Lossless(tailSlice), tail), truncated: true };
}

/**
 * Preview of one tool-result payload (seed 000: "Tool result payloads larger than 1 KiB").
 * At most {@link SHORT_TOOL_RESULT_BYTES} bytes: unchanged, `truncated: false`. Larger: head
 * 320 bytes + marker + tail 160 bytes, `truncated: true`. (The contract's "≤ 480 bytes → head
 * only" rule lives in {@link boundedPreview}; it cannot trigger past the 1 KiB threshold.)
 * `total` is the payload's {@link utf8ByteLength}, for a caller that knows it already: on a
 * large tool output, each count is a full scan of the text (issue 36: three per payload).
 */
export function trimToolResultPreview(text: string, total = utf8ByteLength(text)): { preview: string; truncated: boolean } {
  if (total <= SHORT_TOOL_RESULT_BYTES) return { preview: text, truncated: false };
  const { text: preview } = boundedPreview(text, PREVIEW_HEAD_BYTES, PREVIEW_TAIL_BYTES, total);
  return { preview, truncated: true };
}

/**
 * Bounded `input_summary` of a tool call (contract §4.2: "head 320 bytes plus the marker, with
 * no tail"). Threshold: inputs over {@link PREVIEW_HEAD_BYTES} (320) bytes are trimmed, not
 * over 1 KiB, because that is what prompt-diary's classic builder does (`tail=0` preview).
 */
export function boundedInputSummary(text: string): { summary: string; truncated: boolean } {
  const { text: summary, truncated } = boundedPreview(text, PREVIEW_HEAD_BYTES, 0);
  return { summary, truncated };
}

/**
 * Bounded fallback text, used for source-generated context (contract §4.4 "bounded (head 320 +
 * tail 160)"). Texts over 320 bytes are trimmed: head + marker + tail when over 480 bytes, head +
 * marker otherwise. Threshold 320, not 1 KiB, matches prompt-diary's classic builder and its test
 * that source-context previews stay under 600 bytes.
 */
export function boundedText(text: string): { text: string; truncated: boolean } {
  return boundedPreview(text, PREVIEW_HEAD_BYTES, PREVIEW_TAIL_BYTES);
}

/** First `count` bytes of valid UTF-8, dropping a code point cut at the end. */
function decodeHead(bytes: Buffer, count: number): string {
  let end = Math.min(count, bytes.length);
  if (end < bytes.length) {
    // Step back over continuation bytes to the lead byte of the last code point.
    let lead = end - 1;
    while (lead > 0 && lead > end - 4 && isContinuation(bytes[lead] ?? 0)) lead -= 1;
    if (lead + sequenceLength(bytes[lead] ?? 0) > end) end = lead;
  }
  return bytes.subarray(0, end).toString("utf8");
}

/** Last `count` bytes of valid UTF-8, dropping a code point cut at the start. */
function decodeTail(bytes: Buffer, count: number): string {
  let start = Math.max(0, bytes.length - count);
  while (start < bytes.length && isContinuation(bytes[start] ?? 0)) start += 1;
  return bytes.subarray(start).toString("utf8");
}

function widenEnd(text: string, end: number): number {
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end + 1 : end;
}

function widenStart(text: string, start: number): number {
  if (start <= 0) return 0;
  const code = text.charCodeAt(start);
  return code >= 0xdc00 && code <= 0xdfff ? start - 1 : start;
}

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

function sequenceLength(lead: number): number {
  if (lead >= 0xf0) return 4;
  if (lead >= 0xe0) return 3;
  if (lead >= 0xc0) return 2;
  return 1;
}
