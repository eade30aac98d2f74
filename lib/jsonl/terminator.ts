/** Line terminators (contract §1.6), in a module without imports: worker bundles needing only these leave line-index and zod out. */

/** Bytes of the line terminator ending `bytes[start..end)` (0 when the line has none; contract §1.6 breaks). */
export function terminatorBytes(bytes: Uint8Array, start: number, end: number): number {
  const n = end - start;
  const last = bytes[end - 1];
  // Most lines end with `\n` (or `\r\n`): decided before the rarer breaks.
  if (n >= 1 && last === 0x0a) return n >= 2 && bytes[end - 2] === 0x0d ? 2 : 1;
  if (n >= 3 && bytes[end - 3] === 0xe2 && bytes[end - 2] === 0x80 && (last === 0xa8 || last === 0xa9)) return 3;
  if (n >= 2 && ((bytes[end - 2] === 0xc2 && last === 0x85) || (bytes[end - 2] === 0x0d && last === 0x0a))) return 2;
  if (n >= 1 && last !== undefined && SINGLE_BYTE_BREAKS.has(last)) return 1;
  return 0;
}

const SINGLE_BYTE_BREAKS = new Set([0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e]);
