/** Grep patterns compiled with RE2 semantics, plus the literal a match must contain. */
import { RE2JS } from "re2js";

import { MAX_NEEDLE_BYTES } from "@/lib/forensics/simd-find";

/**
 * A compiled grep pattern: RE2 semantics (linear time whatever the pattern, so a catastrophic
 * pattern cannot hang the server), plus `needle`, a literal every match must contain, used to
 * find candidate lines with a SIMD search (`simd-find.ts`) before the regex runs; with
 * `ignoreCase` the needle matches ASCII letters in either case (a leading `(?i)`). `exact`
 * means the pattern is that literal, so no regex needs to run at all. `startsWithNeedle`: every
 * match begins with the needle, so a candidate is confirmed by an anchored match from the
 * needle's position (`re.matcher(…).lookingAt()`), without reading the rest of the line.
 *
 * `re` confirms one line (its bytes without the terminator, so `^`/`$` are the line's ends);
 * `chunkRe` finds candidates in a chunk of whole lines when there is no needle, compiled
 * MULTILINE so `^` and `$` also match at the `\n`s inside the chunk; `lineAnchors` (`^` or `$`
 * in the pattern: lines next to other contract §1.6 breaks need a test of their own) and
 * `textAnchors` (`\A` or `\z`, which only match at the chunk's ends: every line is tested alone).
 */
export type GrepPattern = { re: RE2JS; chunkRe: RE2JS; needle: Buffer | null; ignoreCase: boolean; exact: boolean; startsWithNeedle: boolean; lineAnchors: boolean; textAnchors: boolean };

const META = new Set([..."\\^$.|?*+()[]{}"]);
/** Escapes whose character stands for itself. */
const LITERAL_ESCAPES = new Set([...".^$|?*+()[]{}\\/\"'-#:=<>!@%&,;~` "]);
/** The shortest required literal worth a prefilter (shorter ones match too often to help). */
const MIN_NEEDLE_CHARS = 3;
/** Under `(?i)`, RE2 also folds these ASCII letters to non-ASCII ones (U+212A K, U+017F ſ). */
const NON_ASCII_FOLDS = /[kKsS]/;
const CASE_INSENSITIVE = "(?i)";
/** `(?flags)` or `(?flags:…)` anywhere (not `(?:`, `(?<name>`, `(?P<name>`): literals may then be case-folded. */
const INLINE_FLAGS = /\(\?(?!:|P?<)/;

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
  // A leading (?i) alone is understood: the rest is searched ASCII case-insensitively.
  const ignoreCase = pattern.startsWith(CASE_INSENSITIVE) && !pattern.slice(CASE_INSENSITIVE.length).includes("(?");
  const body = ignoreCase ? pattern.slice(CASE_INSENSITIVE.length) : pattern;
  const plain = [...body].every((c) => !META.has(c)) && !/[\n\r]/.test(body) && !(ignoreCase && (NON_ASCII_FOLDS.test(body) || /[^\x00-\x7f]/.test(body)));
  const literal = plain ? { text: body, atStart: true } : scanLiteral(body, ignoreCase);
  const usable = literal !== null && literal.text.length >= MIN_NEEDLE_CHARS;
  const needle = usable ? Buffer.from(literal.text, "utf8").subarray(0, MAX_NEEDLE_BYTES) : null;
  const exact = plain && usable && needle!.length === Buffer.byteLength(body);
  return { re, chunkRe, needle, ignoreCase, exact, startsWithNeedle: usable && literal.atStart, lineAnchors: /[$^]/.test(pattern), textAnchors: /\\[Az]/.test(pattern) };
}

/**
 * The longest run of literal characters that every match of `pattern` must contain, or null.
 * Conservative: only runs at group depth 0 count, any top-level `|` or inline flag (`(?i)`,
 * anywhere) gives null, and a character followed by `?`, `*` or `{` is dropped from its run.
 */
export function requiredLiteral(pattern: string): string | null {
  return scanLiteral(pattern, false)?.text ?? null;
}

/**
 * {@link requiredLiteral}'s scan: the run and whether it starts the pattern (`atStart`: every
 * match then begins with it). `fold` (the pattern is case-insensitive) also ends runs at
 * letters RE2 folds to non-ASCII characters and at non-ASCII characters.
 */
function scanLiteral(pattern: string, fold: boolean): { text: string; atStart: boolean } | null {
  if (INLINE_FLAGS.test(pattern) || pattern.includes("\\Q")) return null; // \Q…\E quotes metacharacters
  let best = "";
  let bestStart = -1;
  let run = "";
  let runStart = 0;
  let depth = 0;
  const flush = () => {
    if (run.length > best.length) {
      best = run;
      bestStart = runStart;
    }
    run = "";
  };
  const add = (c: string, at: number) => {
    if (fold && (NON_ASCII_FOLDS.test(c) || c.charCodeAt(0) > 0x7f)) return flush();
    if (run === "") runStart = at;
    run += c;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\") {
      const next = pattern[i + 1];
      i += 1;
      if (next !== undefined && LITERAL_ESCAPES.has(next) && depth === 0) add(next, i - 1);
      else flush();
      continue;
    }
    if (c === "[") {
      flush();
      // Skip the class: a leading `]` or `^]` is literal inside it.
      let j = i + 1;
      if (pattern[j] === "^") j += 1;
      if (pattern[j] === "]") j += 1;
      while (j < pattern.length && pattern[j] !== "]") {
        const posix = pattern.startsWith("[:", j) ? pattern.indexOf(":]", j + 2) : -1; // [[:alpha:]]
        j = posix >= 0 ? posix + 2 : j + (pattern[j] === "\\" ? 2 : 1);
      }
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
    if (depth === 0) add(c, i);
    else flush();
  }
  flush();
  return best.length > 0 ? { text: best, atStart: bestStart === 0 } : null;
}
