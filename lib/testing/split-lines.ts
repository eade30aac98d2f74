/** Test oracle: decoded text split into physical lines the plain way (Python `splitlines`), to check the byte-level line readers against. */

/**
 * Splits decoded text into physical lines exactly like Python `str.splitlines()` without
 * keepends: no extra empty line for a trailing line break, `[]` for the empty string.
 * Source: contract §1.6.
 */
export function splitPhysicalLines(text: string): string[] {
  if (text.length === 0) return [];
  const parts = text.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
  // A trailing break produces one final empty string that splitlines() does not.
  if (parts.length > 1 && parts[parts.length - 1] === "" && endsWithBreak(text)) parts.pop();
  return parts;
}

function endsWithBreak(text: string): boolean {
  return /[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]$/.test(text);
}
