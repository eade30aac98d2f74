import { RE2JS } from "re2js";

/**
 * A compiled grep pattern: RE2 semantics (linear time whatever the pattern, so a catastrophic
 * pattern cannot hang the server), plus `needle`, a literal every match must contain, used to
 * find candidate lines with `Buffer.indexOf` before the regex runs. `exact` means the pattern
 * is that literal, so no regex needs to run at all.
 *
 * `re` confirms one line (its bytes without the terminator, so `^`/`$` are the line's ends);
 * `chunkRe` finds candidates in a chunk of whole lines, compiled MULTILINE so `^` and `$` also
 * match at the line breaks inside the chunk (as `grep` anchors each line).
 */
export type GrepPattern = { re: RE2JS; chunkRe: RE2JS; needle: Buffer | null; exact: boolean };

const META = new Set([..."\\^$.|?*+()[]{}"]);
/** Escapes whose character stands for itself. */
const LITERAL_ESCAPES = new Set([...".^$|?*+()[]{}\\/\"'-#:=<>!@%&,;~` "]);
/** The shortest required literal worth a prefilter (shorter ones match too often to help). */
const MIN_NEEDLE_CHARS = 3;

/**
 * Compiles `pattern` with re2js. Returns `{error}` with RE2's description for an invalid
 * pattern (an unbalanced group, a backreference, lookahead: RE2 has none of them).
 */
export function compileGrepPattern(pattern: string): GrepPattern | { error: string } {
  let re: RE2JS;
  let chunkRe: RE2JS;
  try {
    re = RE2JS.compile(pattern);
    chunkRe = RE2JS.compile(pattern, RE2JS.MULTILINE);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  const exact = [...pattern].every((c) => !META.has(c)) && !/[\n\r]/.test(pattern);
  const needleText = exact ? pattern : requiredLiteral(pattern);
  const needle = needleText !== null && needleText.length >= MIN_NEEDLE_CHARS ? Buffer.from(needleText, "utf8") : null;
  return { re, chunkRe, needle, exact: exact && needle !== null };
}

/**
 * The longest run of literal characters that every match of `pattern` must contain, or null.
 * Conservative: only runs at group depth 0 count, any top-level `|` or inline flag (`(?i)`)
 * gives null, and a character followed by `?`, `*` or `{` is dropped from its run.
 */
export function requiredLiteral(pattern: string): string | null {
  if (pattern.startsWith("(?")) return null;
  let best = "";
  let run = "";
  let depth = 0;
  const flush = () => {
    if (run.length > best.length) best = run;
    run = "";
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\") {
      const next = pattern[i + 1];
      i += 1;
      if (next !== undefined && LITERAL_ESCAPES.has(next) && depth === 0) run += next;
      else flush();
      continue;
    }
    if (c === "[") {
      flush();
      // Skip the class: a leading `]` or `^]` is literal inside it.
      let j = i + 1;
      if (pattern[j] === "^") j += 1;
      if (pattern[j] === "]") j += 1;
      while (j < pattern.length && pattern[j] !== "]") j += pattern[j] === "\\" ? 2 : 1;
      i = j;
      continue;
    }
    if (c === "(") {
      flush();
      depth += 1;
      continue;
    }
    if (c === ")") {
      flush();
      depth = Math.max(0, depth - 1);
      continue;
    }
    if (c === "|") {
      if (depth === 0) return null;
      flush();
      continue;
    }
    if (c === "?" || c === "*" || c === "{") {
      run = run.slice(0, -1);
      flush();
      if (c === "{") while (i < pattern.length && pattern[i] !== "}") i += 1;
      continue;
    }
    if (c === "+" || c === "." || c === "^" || c === "$") {
      flush();
      continue;
    }
    if (depth === 0) run += c;
    else flush();
  }
  flush();
  return best.length > 0 ? best : null;
}
