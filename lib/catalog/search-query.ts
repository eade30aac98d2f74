/**
 * The search query language (issue 37): one parser for every door (dashboard, HTTP, MCP, CLI).
 * Pure: no I/O; it imports only the list of sources. Matching and the FTS5 candidate expression are in search-match.ts.
 */
import { TRANSCRIPT_SOURCES } from "@/lib/sources/common/schema";

/** Agents an `agent:` filter accepts: every transcript source (lib/sources/common/schema). */
export const AGENTS = TRANSCRIPT_SOURCES;
/** Roles a `role:` filter accepts. */
export const ROLES = ["user", "assistant", "tool"] as const;
/** Every filter name, in the order describeQuery writes them. */
export const FILTER_NAMES = ["project", "session", "agent", "machine", "role", "tool", "file", "is", "after", "before"] as const;
/** Longest query accepted, in UTF-16 code units (JS string length). */
export const MAX_QUERY_LENGTH = 500;

/** A search term: `text` as typed (no quotes, no `-`, no trailing `*`); [start, end) spans the whole token as typed, `-`, quotes and `*` included. */
export type SearchTerm = { kind: "word" | "phrase" | "prefix"; text: string; start: number; end: number };
/** Terms joined by OR; a clause of one term is a plain word, phrase or prefix. */
export type SearchClause = { any: SearchTerm[] };
/** Filter values, each list ORed; `after`/`before` are YYYY-MM-DD days (see dateBounds). */
export type SearchFilters = {
  project: string[];
  session: string[];
  agent: string[];
  /** Machines the sessions came from (issue 39 provenance), as named (the case kept). */
  machine: string[];
  role: ("user" | "assistant" | "tool")[];
  tool: string[];
  file: string[];
  is_error: boolean;
  after: string | null;
  before: string | null;
};
/** A parsed query: every clause must match, no excluded term may occur, the filters narrow the sessions and lines. */
export type ParsedQuery = { clauses: SearchClause[]; excluded: SearchTerm[]; filters: SearchFilters };

type FilterName = (typeof FILTER_NAMES)[number];

/** A malformed query: `position` is a 0-based offset (UTF-16 code units) into the query as given. */
export class QueryError extends Error {
  override readonly name = "QueryError";
  constructor(
    readonly position: number,
    readonly problem: string,
    readonly hint: string,
  ) {
    super(formatQueryError({ position, problem }));
  }
}

/** `at character N: problem`, N counted from 1 for people. */
export function formatQueryError(error: { position: number; problem: string }): string {
  return `at character ${error.position + 1}: ${error.problem}`;
}

type Token =
  | { type: "term"; term: SearchTerm; negated: boolean }
  | { type: "or"; start: number }
  | { type: "filter"; name: FilterName; value: string; start: number; valueStart: number };

const SPACE = /\s/;
const FILTER_HINT = `filters are ${FILTER_NAMES.map((n) => `${n}:`).join(" ")}; to search for the text itself, put it in quotes`;

/**
 * Parses a search query: space-separated terms ANDed, `"exact phrase"`, `a OR b`, `-excluded`,
 * `prefix*`, and filters `name:value` (value quoted if it has spaces). Terms match
 * case-insensitively as substrings. Rules and their reasons: issue 37.
 * @throws QueryError for every malformed query, with its position, problem and a hint.
 */
export function parseSearchQuery(query: string): ParsedQuery {
  if (query.length > MAX_QUERY_LENGTH) throw new QueryError(MAX_QUERY_LENGTH, `the query is longer than ${MAX_QUERY_LENGTH} characters`, "shorten it; use filters to narrow instead of long phrases");
  const nul = query.indexOf("\u0000");
  if (nul !== -1) throw new QueryError(nul, "the query contains a NUL character (U+0000)", "remove it; no indexed text contains one");
  const tokens = tokenize(query);
  const parsed: ParsedQuery = { clauses: [], excluded: [], filters: emptyFilters() };
  const seen = new Map<"after" | "before", number>();
  tokens.forEach((token, k) => {
    if (token.type === "or") return checkOr(tokens, k);
    if (token.type === "filter") return addFilter(parsed.filters, token, seen);
    if (token.negated) parsed.excluded.push(token.term);
    else if (tokens[k - 1]?.type === "or") parsed.clauses.at(-1)!.any.push(token.term);
    else parsed.clauses.push({ any: [token.term] });
  });
  const { after, before } = parsed.filters;
  if (after && before && after >= before) {
    throw new QueryError(Math.max(seen.get("after")!, seen.get("before")!), `after:${after} is not before before:${before}, so no line can match`, "after: includes its day, before: excludes its day");
  }
  const hasFilter = tokens.some((t) => t.type === "filter");
  if (parsed.clauses.length === 0 && !hasFilter) {
    if (parsed.excluded.length > 0) throw new QueryError(parsed.excluded[0]!.start, "only excluded terms: nothing to search for", "add a word to search for, or a filter such as project:KEY");
    throw new QueryError(0, "the query is empty", 'type a word, an "exact phrase" or a filter such as agent:codex');
  }
  return parsed;
}

function emptyFilters(): SearchFilters {
  return { project: [], session: [], agent: [], machine: [], role: [], tool: [], file: [], is_error: false, after: null, before: null };
}

/** Splits the query into terms, ORs and filters; every lexical error is thrown here. */
function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    if (SPACE.test(query[i]!)) {
      i++;
      continue;
    }
    const start = i;
    const negated = query[i] === "-";
    if (negated) {
      i++;
      if (i >= query.length || SPACE.test(query[i]!)) throw new QueryError(start, "a lone - excludes nothing", 'put the word or "phrase" to exclude right after it: -word');
    }
    if (query[i] === '"') {
      const { text, end } = readQuoted(query, i);
      if (text.trim() === "") throw new QueryError(i, "an empty phrase", 'put the text to search for between the quotes: "exact phrase"');
      tokens.push({ type: "term", negated, term: { kind: "phrase", text, start, end } });
      i = end;
      continue;
    }
    const filter = /^([A-Za-z_]+):/.exec(query.slice(i, i + 16));
    const name = filter?.[1]!.toLowerCase();
    // `file://…` is a URL to search for, not a file: filter.
    if (name !== undefined && (FILTER_NAMES as readonly string[]).includes(name) && !query.startsWith("//", i + filter![0].length)) {
      if (negated) throw new QueryError(start, "filters cannot be negated; -" + name + ": is not supported", `give the values to keep instead, e.g. ${name}:VALUE`);
      const valueStart = i + filter![0].length;
      const quoted = query[valueStart] === '"';
      const value = quoted ? readQuoted(query, valueStart) : { text: query.slice(valueStart, wordEnd(query, valueStart)), end: wordEnd(query, valueStart) };
      if (value.text.trim() === "") throw new QueryError(valueStart, `${name}: needs a value`, `write it right after the colon, e.g. ${name}:VALUE (quoted if it has spaces)`);
      tokens.push({ type: "filter", name: name as FilterName, value: value.text, start, valueStart: quoted ? valueStart + 1 : valueStart });
      i = value.end;
      continue;
    }
    const end = wordEnd(query, i);
    const raw = query.slice(i, end);
    // `foo:bar` with a lowercase identifier reads as a mistyped filter; `http://x`, `C:\dir`, `12:30`, `std::move`, `TypeError:` stay words.
    const unknown = /^([a-z_]+):(?![/\\:])/.exec(raw);
    if (unknown) throw new QueryError(i, `unknown filter ${unknown[1]}:`, FILTER_HINT + `: "${raw}"`);
    if (!negated && raw === "OR") tokens.push({ type: "or", start });
    else if (raw === "*") throw new QueryError(i, "a lone * matches nothing", "put it right after the start of a word: deprec*");
    else if (raw.endsWith("*")) tokens.push({ type: "term", negated, term: { kind: "prefix", text: raw.slice(0, -1), start, end } });
    else tokens.push({ type: "term", negated, term: { kind: "word", text: raw, start, end } });
    i = end;
  }
  return tokens;
}

function wordEnd(query: string, from: number): number {
  let end = from;
  while (end < query.length && !SPACE.test(query[end]!)) end++;
  return end;
}

/** The text between the quote at `open` and the next quote; `end` is past the closing quote, which must end the token. */
function readQuoted(query: string, open: number): { text: string; end: number } {
  const close = query.indexOf('"', open + 1);
  if (close === -1) throw new QueryError(open, "an unclosed quote", 'close the phrase with a second " (a phrase ends at the next ")');
  const end = close + 1;
  if (query[end] === "*") throw new QueryError(end, "prefix search (*) works on single words, not on quoted text", "drop the * or the quotes");
  if (end < query.length && !SPACE.test(query[end]!)) {
    throw new QueryError(end, "text right after a closing quote", 'put a space after the closing quote; to search for text with quotes in it, type it unquoted: a " inside a word is an ordinary character');
  }
  return { text: query.slice(open + 1, close), end };
}

/** OR must stand between two positive terms. */
function checkOr(tokens: Token[], k: number): void {
  const or = tokens[k] as Extract<Token, { type: "or" }>;
  const prev = tokens[k - 1];
  const next = tokens[k + 1];
  const orHint = 'OR goes between two terms: foo OR "bar baz"';
  if (!prev) throw new QueryError(or.start, "OR at the start of the query", orHint);
  if (!next) throw new QueryError(or.start, "OR at the end of the query", orHint);
  if (next.type === "or") throw new QueryError(next.start, "OR twice in a row", orHint);
  for (const side of [prev, next]) {
    if (side.type === "filter") throw new QueryError(or.start, "OR joins search terms, not filters", "repeat a filter to accept any of its values: agent:codex agent:aider");
    if (side.type === "term" && side.negated) throw new QueryError(side.term.start, "a negated term inside an OR group", "exclude it outside the group: foo OR bar -baz");
  }
}

/** Validates one filter and adds its value (repeated values ORed, duplicates dropped). */
function addFilter(filters: SearchFilters, token: Extract<Token, { type: "filter" }>, seen: Map<"after" | "before", number>): void {
  const { name, value, valueStart } = token;
  const oneOf = <T extends string>(allowed: readonly T[]): T => {
    const v = value.toLowerCase();
    if ((allowed as readonly string[]).includes(v)) return v as T;
    throw new QueryError(valueStart, `unknown ${name} "${value}"`, `${name}: is one of ${allowed.join(", ")}`);
  };
  const push = <T extends string>(list: T[], v: T) => void (list.includes(v) || list.push(v));
  switch (name) {
    case "agent":
      return push(filters.agent, oneOf(AGENTS));
    case "role":
      return push(filters.role, oneOf(ROLES));
    case "is":
      oneOf(["error"] as const);
      filters.is_error = true;
      return;
    case "after":
    case "before":
      if (seen.has(name)) throw new QueryError(token.start, `a second ${name}: filter`, "give one after: and one before: for a range");
      if (!isRealDay(value)) throw new QueryError(valueStart, `${name}: needs a real date as YYYY-MM-DD, not "${value}"`, `e.g. ${name}:2026-03-01`);
      seen.set(name, token.start);
      filters[name] = value;
      return;
    default:
      return push(filters[name], value);
  }
}

function isRealDay(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === value;
}

/**
 * The ISO instants the date filters bound: `gte` is the start (00:00:00Z) of the `after:` day,
 * inclusive; `lt` the start of the `before:` day, exclusive. Null where the filter is absent.
 */
export function dateBounds(filters: Pick<SearchFilters, "after" | "before">): { gte: string | null; lt: string | null } {
  const start = (day: string | null) => (day === null ? null : `${day}T00:00:00.000Z`);
  return { gte: start(filters.after), lt: start(filters.before) };
}

/**
 * The canonical text of a parsed query, for cache keys and "searching for …": terms case-folded
 * (foldCase: matching ignores case), duplicates dropped, words and phrases that read the same unquoted
 * written bare, filters in FILTER_NAMES order. Parsing it gives the same query again.
 */
export function describeQuery(parsed: ParsedQuery): string {
  const parts = new Set<string>();
  for (const clause of parsed.clauses) parts.add([...new Set(clause.any.map(termText))].join(" OR "));
  for (const term of parsed.excluded) parts.add("-" + termText(term));
  const f = parsed.filters;
  const values: Record<FilterName, readonly string[]> = { ...f, is: f.is_error ? ["error"] : [], after: f.after ? [f.after] : [], before: f.before ? [f.before] : [] };
  for (const name of FILTER_NAMES) for (const v of values[name]) parts.add(`${name}:${/\s/.test(v) ? `"${v}"` : v}`);
  return [...parts].join(" ");
}

function termText(term: SearchTerm): string {
  const text = foldCase(term.text);
  // A prefix cannot be quoted: one whose folded text would read as a filter keeps its case (`Foo:bar*`).
  if (term.kind === "prefix") return (readsAsFilter(text) ? term.text : text) + "*";
  const bare = !/\s/.test(text) && !/^["-]/.test(text) && !text.endsWith("*") && !readsAsFilter(text);
  return bare ? text : `"${text}"`;
}

/** Whether tokenize would read `text` (unquoted) as a filter or refuse it as an unknown one. */
function readsAsFilter(text: string): boolean {
  const name = /^([A-Za-z_]+):/.exec(text);
  if (!name) return false;
  const known = (FILTER_NAMES as readonly string[]).includes(name[1]!.toLowerCase()) && !text.startsWith("//", name[0].length);
  return known || /^[a-z_]+:(?![/\\:])/.test(text);
}

/**
 * Folds case one code point at a time, so offsets into the result are offsets into `text`:
 * lowercase, except U+0130 (İ, whose lowercase is two code points, kept as is, as SQLite's
 * trigram tokenizer keeps it), then the few letters whose uppercase lowercases to another
 * letter (final sigma, micro sign, long s, …) mapped to that letter, as SQLite folds them.
 * search-match.test.ts checks every code point against SQLite.
 */
export function foldCase(text: string): string {
  let lower = text.toLowerCase();
  // Only a lowercase longer than its letter changes the length (İ is the one such letter).
  if (lower.length !== text.length) lower = Array.from(text, (ch) => (ch.toLowerCase().length === ch.length ? ch.toLowerCase() : ch)).join("");
  return EXTRA_FOLD.test(lower) ? lower.replace(EXTRA_FOLD_ALL, (ch) => EXTRA_FOLDS[ch]!) : lower;
}

const EXTRA_FOLDS: Record<string, string> = {
  "\u00b5": "\u03bc", // µ micro sign → μ
  "\u017f": "s", // ſ long s
  "\u0345": "\u03b9", // combining ypogegrammeni → ι
  "\u03c2": "\u03c3", // ς final sigma → σ (toLowerCase gives ς or σ for Σ by context)
  "\u03d0": "\u03b2",
  "\u03d1": "\u03b8",
  "\u03d5": "\u03c6",
  "\u03d6": "\u03c0",
  "\u03f0": "\u03ba",
  "\u03f1": "\u03c1",
  "\u03f5": "\u03b5",
  "\u1e9b": "\u1e61",
  "\u1fbe": "\u03b9",
};
const EXTRA_FOLD = new RegExp(`[${Object.keys(EXTRA_FOLDS).join("")}]`);
const EXTRA_FOLD_ALL = new RegExp(EXTRA_FOLD.source, "g");
