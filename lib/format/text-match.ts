/** Finding a search pattern in display text: the regex, whether it matches, the text cut at its matches (issue 29). */
import { escapeControls, stripTerminal } from "@/lib/format/display-text";

/**
 * A case-insensitive global regex for `pattern` (grep_jsonl's RE2 syntax is close to JS's); a
 * pattern JS cannot compile is matched literally. Null for a blank pattern.
 */
export function highlightRegex(pattern: string): RegExp | null {
  // RE2's inline `(?i)` is JS's `i` flag, which the regex has anyway.
  const p = pattern.trim().replace(/^\(\?i\)/, "");
  if (!p) return null;
  try {
    return new RegExp(p, "gi");
  } catch {
    return new RegExp(p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi");
  }
}

/** Whether `text` holds a match of `regex` (a global regex: its lastIndex is reset). */
export function hasMatch(regex: RegExp | null | undefined, text: string | null | undefined): boolean {
  if (!regex || !text) return false;
  regex.lastIndex = 0;
  const found = regex.test(text);
  regex.lastIndex = 0;
  return found;
}

/** `text` cut into plain and matching pieces (`match: true`), in order; a zero-length match ends the scan. */
export function splitMatches(text: string, regex: RegExp | null | undefined): { text: string; match: boolean }[] {
  if (!regex || !text) return [{ text, match: false }];
  const out: { text: string; match: boolean }[] = [];
  let last = 0;
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m; m = regex.exec(text)) {
    if (m[0] === "") break;
    if (m.index > last) out.push({ text: text.slice(last, m.index), match: false });
    out.push({ text: m[0], match: true });
    last = m.index + m[0].length;
  }
  regex.lastIndex = 0;
  if (last < text.length) out.push({ text: text.slice(last), match: false });
  return out;
}

/** Raw lines over this size are not parsed for a snippet: their JSON escapes are undone instead. */
const SNIPPET_PARSE_LIMIT = 1 << 20;

/**
 * A readable excerpt of a matching JSONL line (issue 29: no raw JSON escapes): the decoded JSON
 * string value that holds the first match, on one line, `context` characters around the match
 * (`…` where cut). When the match is in no single string value (a key, the structure) or the
 * line is not JSON, the raw line's excerpt with its `\n`, `\t`, `\"` and `\\` escapes undone.
 */
export function matchSnippet(raw: string, regex: RegExp | null, context = 110): string {
  let value: unknown = undefined;
  if (raw.length <= SNIPPET_PARSE_LIMIT) {
    try {
      value = JSON.parse(raw);
    } catch {
      value = undefined;
    }
  }
  const text = (value !== undefined && findString(value, regex)) || unescapeJson(raw);
  // Shown as text on the page: no terminal junk, no invisible or reordering characters (issue 35).
  return excerptAround(escapeControls(stripTerminal(text).replace(/\s+/g, " ").trim()), regex, context);
}

function findString(value: unknown, regex: RegExp | null): string | null {
  if (typeof value === "string") return hasMatch(regex, value) ? value : null;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findString(item, regex);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const item of Object.values(value)) {
      const found = findString(item, regex);
      if (found !== null) return found;
    }
  }
  return null;
}

function unescapeJson(raw: string): string {
  return raw.replace(/\\(["\\/nrt]|u[0-9a-fA-F]{4})/g, (_, c: string) => (c.length === 5 ? String.fromCharCode(parseInt(c.slice(1), 16)) : c === "n" || c === "r" || c === "t" ? " " : c));
}

function excerptAround(text: string, regex: RegExp | null, context: number): string {
  let at = 0;
  if (regex) {
    regex.lastIndex = 0;
    at = regex.exec(text)?.index ?? 0;
    regex.lastIndex = 0;
  }
  const start = Math.max(0, at - Math.floor(context / 2));
  const end = Math.min(text.length, start + context * 2);
  return `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`;
}
