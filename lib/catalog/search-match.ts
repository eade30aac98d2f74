/**
 * Matching a parsed search query (search-query.ts) against lines: the FTS5 candidate expression
 * that narrows the index to a superset, the exact line matcher, BM25 scoring and snippets. Pure.
 */
import { foldCase, type ParsedQuery, type SearchTerm } from "@/lib/catalog/search-query";
import type { CandidateWords } from "@/lib/catalog/store";
import { termTokens } from "@/lib/catalog/trigram-tokens";

/** Occurrences of a matching line: `ranges` are [start, end) UTF-16 offsets into the original text; `counts[i]` the occurrences of clause i's terms. */
export type LineMatch = { ranges: [number, number][]; counts: number[] };

/** BM25 constants (Robertson & Zaragoza, "The Probabilistic Relevance Framework", 2009; Lucene's defaults). */
const BM25_K1 = 1.2;
const BM25_B = 0.75;
/** Average indexed line length assumed by scoreLine, in characters. */
const AVERAGE_LINE_CHARS = 2_000;
/** A letter, digit or underscore: a prefix term must not follow one. */
const WORD_CHAR = /[\p{L}\p{N}_]/u;

/**
 * An FTS5 MATCH expression over the index's trigram words (lib/catalog/trigram-tokens) whose rows
 * are a superset of the lines matchLine accepts: a term of 3+ UTF-16 code units is the AND of its
 * distinct words, an OR clause `((…) OR (…))` unless one alternative is shorter (then it
 * constrains nothing), clauses ANDed; excluded terms and filters add nothing. Both sides fold
 * case with foldCase, so a line holding a term holds its words.
 * @returns null when no clause constrains (scan the lines the filters leave instead).
 */
export function candidateExpression(parsed: ParsedQuery): string | null {
  const words = candidateWords(parsed);
  return words === null ? null : ftsExpression(words);
}

/**
 * The index words of {@link candidateExpression}, apart from any database (lib/catalog/store's
 * CandidateWords: clauses ANDed, alternatives ORed, words ANDed; repeats dropped); null when no
 * clause constrains. Each store renders them its own way (issue 39).
 */
export function candidateWords(parsed: ParsedQuery): CandidateWords | null {
  const clauses = new Map<string, string[][]>();
  for (const clause of parsed.clauses) {
    const alternatives = clause.any.map((term) => termTokens(term.text));
    if (alternatives.some((t) => t.length === 0)) continue;
    const distinct = [...new Map(alternatives.map((t) => [t.join(" "), t])).values()];
    clauses.set(distinct.map((t) => t.join(" ")).join("|"), distinct);
  }
  return clauses.size === 0 ? null : [...clauses.values()];
}

/** The FTS5 MATCH expression of index words: an alternative `"w1" AND "w2"`, a clause of several `((…) OR (…))`, clauses ANDed. */
export function ftsExpression(words: CandidateWords): string {
  return words
    .map((clause) => {
      const exprs = clause.map((alternative) => alternative.map((w) => `"${w}"`).join(" AND "));
      return exprs.length === 1 ? exprs[0]! : `(${exprs.map((e) => `(${e})`).join(" OR ")})`;
    })
    .join(" AND ");
}

type Compiled = { clauses: Needle[][]; excluded: Needle[] };
type Needle = { folded: string; prefix: boolean };
const compiled = new WeakMap<ParsedQuery, Compiled>();

function compile(parsed: ParsedQuery): Compiled {
  let c = compiled.get(parsed);
  if (!c) {
    const needle = (t: SearchTerm): Needle => ({ folded: foldCase(t.text), prefix: t.kind === "prefix" });
    c = { clauses: parsed.clauses.map((cl) => cl.any.map(needle)), excluded: parsed.excluded.map(needle) };
    compiled.set(parsed, c);
  }
  return c;
}

/**
 * Whether `text` satisfies the query's terms (filters are the store's): each clause has a term
 * that occurs, no excluded term occurs. Case-insensitive substring search (foldCase keeps
 * offsets, so ranges index the original text); a prefix term counts only at the start of the
 * text or after a character that is not a letter, digit or underscore.
 * @returns null when it does not match; else every positive occurrence, sorted, overlapping or
 * touching ranges merged, and the occurrence count per clause (for scoreLine).
 */
export function matchLine(parsed: ParsedQuery, text: string): LineMatch | null {
  const { clauses, excluded } = compile(parsed);
  const folded = foldCase(text);
  for (const needle of excluded) if (occurrences(text, folded, needle, 1).length > 0) return null;
  const found: [number, number][] = [];
  const counts: number[] = [];
  for (const clause of clauses) {
    let count = 0;
    for (const needle of clause) {
      const at = occurrences(text, folded, needle);
      count += at.length;
      for (const start of at) found.push([start, start + needle.folded.length]);
    }
    if (count === 0) return null;
    counts.push(count);
  }
  return { ranges: mergeRanges(found), counts };
}

/** Start offsets of non-overlapping occurrences of `needle` in `folded`, at most `limit`. */
function occurrences(text: string, folded: string, needle: Needle, limit = Infinity): number[] {
  const out: number[] = [];
  let from = 0;
  while (out.length < limit) {
    const at = folded.indexOf(needle.folded, from);
    if (at === -1) break;
    if (needle.prefix && followsWordChar(text, at)) {
      from = at + 1;
      continue;
    }
    out.push(at);
    from = at + Math.max(needle.folded.length, 1);
  }
  return out;
}

function followsWordChar(text: string, index: number): boolean {
  if (index === 0) return false;
  const low = text.charCodeAt(index - 1);
  const astral = low >= 0xdc00 && low <= 0xdfff && index >= 2 && text.charCodeAt(index - 2) >= 0xd800 && text.charCodeAt(index - 2) <= 0xdbff;
  return WORD_CHAR.test(String.fromCodePoint(text.codePointAt(astral ? index - 2 : index - 1)!));
}

function mergeRanges(ranges: readonly (readonly [number, number])[]): [number, number][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: [number, number][] = [];
  for (const [start, end] of sorted) {
    const last = out.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}

/**
 * BM25 score of a matching line, higher is better: clause i weighs
 * idf_i · tf(k1+1) / (tf + k1(1 − b + b·len/avg)), tf = counts[i], idf_i =
 * ln(1 + (N − n_i + 0.5)/(n_i + 0.5)) (Lucene's form, never negative), k1 1.2, b 0.75,
 * avg 2,000 chars.
 * @param counts occurrences per clause in this line (LineMatch.counts).
 * @param textLength the line's length in characters.
 * @param clauseHits n_i: how many matching lines contain clause i.
 * @param totalLines N: how many lines matched (or were searched).
 * @throws RangeError when counts and clauseHits differ in length.
 */
export function scoreLine(counts: readonly number[], textLength: number, clauseHits: readonly number[], totalLines: number): number {
  if (counts.length !== clauseHits.length) throw new RangeError(`scoreLine: ${counts.length} counts for ${clauseHits.length} clause hits`);
  const norm = BM25_K1 * (1 - BM25_B + (BM25_B * textLength) / AVERAGE_LINE_CHARS);
  let score = 0;
  counts.forEach((tf, i) => {
    if (tf <= 0) return;
    const n = clauseHits[i]!;
    const idf = Math.log(1 + (Math.max(totalLines, n) - n + 0.5) / (n + 0.5));
    score += (idf * tf * (BM25_K1 + 1)) / (tf + norm);
  });
  return score;
}

/**
 * The text around the first range, for a result list: from `before` characters before it to
 * `after` characters past its end (widened to whole ranges and whole surrogate pairs),
 * whitespace runs collapsed to one space, `…` where text was cut at either end, each range
 * in the window wrapped in `marks`. With no range: the first `before + after` characters.
 */
export function highlightSnippet(
  text: string,
  ranges: readonly (readonly [number, number])[],
  marks: { open: string; close: string } = { open: "[[", close: "]]" },
  before = 80,
  after = 200,
): string {
  const spans = mergeRanges(ranges.map(([s, e]) => [Math.max(0, Math.min(s, text.length)), Math.max(0, Math.min(e, text.length))] as const)).filter(([s, e]) => e > s);
  const first = spans[0];
  let start = first ? Math.max(0, first[0] - before) : 0;
  let end = first ? Math.min(text.length, first[1] + after) : Math.min(text.length, before + after);
  for (const [s, e] of spans) if (s < end && e > end) end = e; // a range the window cuts is shown whole
  if (isLowSurrogate(text, start) && isHighSurrogate(text, start - 1)) start--;
  if (isLowSurrogate(text, end) && isHighSurrogate(text, end - 1)) end++;
  let out = "";
  let space = false; // a whitespace run is pending: written once, before the next visible character
  const put = (piece: string) => {
    if (space && out !== "") out += " ";
    space = false;
    out += piece;
  };
  let k = spans.findIndex(([, e]) => e > start);
  if (k === -1) k = spans.length;
  let open = false;
  for (let i = start; i < end; i++) {
    const span = spans[k];
    if (!open && span && i === span[0]) {
      put(marks.open);
      open = true;
    }
    const ch = text[i]!;
    if (/\s/.test(ch)) space = true;
    else put(ch);
    if (open && span && i + 1 === span[1]) {
      // a space pending at a range's end is inside it (a phrase may end in one)
      if (space) put("");
      out += marks.close;
      open = false;
      k++;
    }
  }
  const head = /\S/.test(text.slice(0, start)) ? "…" : "";
  const tail = /\S/.test(text.slice(end)) ? "…" : "";
  return head + out + tail;
}

function isHighSurrogate(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff;
}
function isLowSurrogate(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff;
}
