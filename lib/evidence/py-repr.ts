/** Python `repr()` of a string, for prompt-diary's quoted messages. */
/**
 * Python `repr()` of a string, as prompt-diary's messages quote values (`unknown turn_ref 'T9'`,
 * contract §1.10 and §2.4): single quotes unless the text holds `'` and no `"`; backslash, the
 * quote and non-printable characters escaped the way CPython does (`\n`, `\x07`, `\u2028`).
 */
export function pyRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (NON_PRINTABLE.test(ch)) out += escapeCodePoint(ch.codePointAt(0)!);
    else out += ch;
  }
  return out + quote;
}

/** Python's non-printable set: categories C* and Z* except the ASCII space. */
const NON_PRINTABLE = /^(?! )[\p{C}\p{Z}]$/u;

function escapeCodePoint(cp: number): string {
  if (cp <= 0xff) return `\\x${cp.toString(16).padStart(2, "0")}`;
  if (cp <= 0xffff) return `\\u${cp.toString(16).padStart(4, "0")}`;
  return `\\U${cp.toString(16).padStart(8, "0")}`;
}
