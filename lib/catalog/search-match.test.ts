/** Matching a parsed query (issue 37): the FTS5 candidate expression against real SQLite, the matcher, scoring and snippets. */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";

import { candidateExpression, highlightSnippet, matchLine, scoreLine } from "@/lib/catalog/search-match";
import { describeQuery, foldCase, parseSearchQuery } from "@/lib/catalog/search-query";
import { lineTokens, termTokens } from "@/lib/catalog/trigram-tokens";
import { seededRandom } from "@/lib/testing/random";

/** A table shaped like the catalog's index (its words: lib/catalog/trigram-tokens), holding `bodies` at rowids 1… */
function ftsTable(bodies: readonly string[]) {
  const db = new Database(":memory:");
  db.exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='ascii', content='', detail=none)");
  const insert = db.prepare("INSERT INTO t(rowid, body) VALUES (?, ?)");
  db.transaction(() => bodies.forEach((body, i) => insert.run(i + 1, lineTokens(body))))();
  const select = db.prepare("SELECT rowid FROM t WHERE t MATCH ?").pluck();
  return {
    db,
    /** Indexes (0-based) of the bodies the expression selects; every body for null. */
    candidates: (expr: string | null) => new Set(expr === null ? bodies.map((_, i) => i) : (select.all(expr) as number[]).map((rowid) => rowid - 1)),
  };
}

const matches = (q: string, text: string) => matchLine(parseSearchQuery(q), text) !== null;

describe("candidateExpression", () => {
  it("ANDs a term's distinct folded trigram words, each its own quoted string", () => {
    const words = (text: string) => termTokens(text).map((w) => `"${w}"`).join(" AND ");
    expect(candidateExpression(parseSearchQuery("Deprec"))).toBe(words("deprec"));
    expect(termTokens("deprec")).toHaveLength(4);
    expect(termTokens("aaaaa")).toHaveLength(1);
    expect(candidateExpression(parseSearchQuery('a"b"c'))).toBe(words('a"b"c'));
    expect(candidateExpression(parseSearchQuery('"a b"'))).toBe(words("a b"));
    for (const w of termTokens("anything at all")) expect(w).toMatch(/^[0-9a-v]{4}$/);
  });

  it("counts UTF-16 code units: an astral character is two", () => {
    expect(termTokens("😀a")).toHaveLength(1);
    expect(candidateExpression(parseSearchQuery("😀"))).toBeNull();
  });

  it("makes an OR clause an OR of groups, and drops a clause with an alternative under 3 characters", () => {
    const words = (text: string) => termTokens(text).map((w) => `"${w}"`).join(" AND ");
    expect(candidateExpression(parseSearchQuery("abcd OR xyz"))).toBe(`((${words("abcd")}) OR (${words("xyz")}))`);
    expect(candidateExpression(parseSearchQuery("abc OR xy def"))).toBe(words("def"));
  });

  it("ANDs clauses and ignores excluded terms, prefixes' stars and filters", () => {
    const words = (text: string) => termTokens(text).map((w) => `"${w}"`).join(" AND ");
    expect(candidateExpression(parseSearchQuery("abc -zzzz defg* agent:codex"))).toBe(`${words("abc")} AND ${words("defg")}`);
  });

  it("is null when nothing constrains", () => {
    expect(candidateExpression(parseSearchQuery("ab"))).toBeNull();
    expect(candidateExpression(parseSearchQuery("tool:Bash -noise"))).toBeNull();
    expect(candidateExpression(parseSearchQuery("go OR rust"))).toBeNull();
  });

  it("is accepted by FTS5 and selects every line the matcher accepts, on quotes, unicode and punctuation", () => {
    const bodies = [
      "DeprecationWarning: datetime.utcnow() is deprecated",
      'He said "hello" and left',
      'print("hello")',
      '{"type":"text","text":"ok"}',
      "C:\\Users\\me\\file.ts",
      "http://example.com/a?b=c&d=e",
      "std::vector<int> v;",
      "Straße und STRASSE",
      "ΟΔΟΣ and οδος",
      "Σίσυφος",
      "İstanbul'da",
      "istanbul",
      "emoji 😀 party 🎉 time",
      "日本語のテキスト検索",
      "Ж ж Жук жук",
      "tab\tseparated\tvalues",
      "5µs elapsed, 3μs idle",
      "snake_case_name and camelCase",
      "a*b*c literal stars",
      "-- dash dash --",
      "OR and or",
      "AND NOT NEAR",
      "apostrophe's quote''s",
      "(parens) [brackets] {braces}",
      "percent 100% done",
      "pre-deprecated note",
      "undeprecated",
      "naïve café résumé",
      "NAÏVE CAFÉ",
      "",
    ];
    const queries = [
      "deprecated",
      "deprec*",
      '"hello"',
      'print("hello")',
      'type":"text',
      "C:\\Users",
      "http://example",
      "std::vector",
      "strasse",
      "straße",
      "οδοσ",
      "ΟΔΟΣ",
      "σίσυφος",
      "İstanbul",
      "istanbul",
      "😀 party",
      "日本語",
      "жук",
      '"tab\tseparated"',
      "μs",
      "µs",
      "snake_case",
      "a*b",
      '"-- dash"',
      '"OR"',
      '"and not"',
      "quote''s",
      "[brackets]",
      "100%",
      "café OR naïve",
      "deprecated -utcnow",
      "ab OR deprecated",
      "naïve -résumé",
    ];
    const table = ftsTable(bodies);
    try {
      for (const q of queries) {
        const parsed = parseSearchQuery(q);
        const candidates = table.candidates(candidateExpression(parsed));
        const matched = bodies.flatMap((body, i) => (matchLine(parsed, body) ? [i] : []));
        expect(matched.length, q).toBeGreaterThan(0);
        for (const i of matched) expect(candidates.has(i), `${q} ⊇ ${JSON.stringify(bodies[i])}`).toBe(true);
      }
      // The expression narrows: not every line is a candidate.
      expect(table.candidates(candidateExpression(parseSearchQuery("deprecated"))).size).toBe(3);
    } finally {
      table.db.close();
    }
  });

  it("stays a superset for every code point foldCase changes: the index and the query fold alike", () => {
    const changed: string[] = [];
    const broken: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      const folded = foldCase(ch);
      // foldCase keeps offsets: one code point in, one of the same UTF-16 length out.
      if (folded.length !== ch.length || Array.from(folded).length !== 1) broken.push(cp.toString(16));
      else if (folded !== ch) changed.push(ch);
    }
    expect(broken).toEqual([]);
    expect(changed.length).toBeGreaterThan(1000);
    const bodies = changed.map((ch) => `a${ch}b`);
    const table = ftsTable(bodies);
    try {
      // The lowercase form of each letter finds the line holding its uppercase one.
      const missed = bodies.filter((body, i) => !table.candidates(candidateExpression(parseSearchQuery(`"${foldCase(body)}"`))).has(i));
      expect(missed.map((body) => Array.from(body)[1]!.codePointAt(0)!.toString(16))).toEqual([]);
      for (const word of ["жук", "οδος", "café", "straße", "𐐨𐐩𐐪", "ქართული"]) expect(candidateExpression(parseSearchQuery(word)), word).not.toBeNull();
    } finally {
      table.db.close();
    }
  });
});

describe("matchLine", () => {
  it("needs every clause and no excluded term, ignoring case", () => {
    expect(matches("deprecated warning", "DeprecationWarning: Deprecated WARNING")).toBe(true);
    expect(matches("deprecated warning", "deprecated only")).toBe(false);
    expect(matches("foo OR bar", "a BAR b")).toBe(true);
    expect(matches("foo OR bar", "baz")).toBe(false);
    expect(matches("deprecated -utcnow", "utcnow() is deprecated")).toBe(false);
    expect(matches("deprecated -utcnow", "now() is deprecated")).toBe(true);
    expect(matches('"is deprecated"', "utcnow() is  deprecated")).toBe(false);
  });

  it("accepts every line for a query of filters only, with nothing to highlight", () => {
    expect(matchLine(parseSearchQuery("agent:codex"), "anything")).toEqual({ ranges: [], counts: [] });
    expect(matchLine(parseSearchQuery("agent:codex -secret"), "a secret")).toBeNull();
  });

  it("finds a prefix only at the start of a word (letters, digits, underscore in any script)", () => {
    expect(matches("deprec*", "deprecated")).toBe(true);
    expect(matches("deprec*", "is (deprecated)")).toBe(true);
    expect(matches("deprec*", "pre-deprecated")).toBe(true);
    expect(matches("deprec*", "undeprecated")).toBe(false);
    expect(matches("deprec*", "_deprecated 9deprecated édeprecated 𝒜deprecated")).toBe(false);
    expect(matches("deprec*", "undeprecated deprecated")).toBe(true);
    expect(matchLine(parseSearchQuery("dep*"), "undep dep")!.ranges).toEqual([[6, 9]]);
    expect(matches("x -old*", "x bold")).toBe(true);
    expect(matches("x -old*", "x old")).toBe(false);
  });

  it("gives sorted, merged ranges into the original text and the occurrences per clause", () => {
    const match = matchLine(parseSearchQuery("bar foo OR baz zz"), "Foo Bar foo baz zzz");
    expect(match).toEqual({ ranges: [[0, 3], [4, 7], [8, 11], [12, 15], [16, 18]], counts: [1, 3, 1] });
    // "o B" overlaps Foo and Bar: merged into one range.
    expect(matchLine(parseSearchQuery('foo "o b"'), "Foo Bar")!.ranges).toEqual([[0, 5]]);
    // touching ranges merge as well.
    expect(matchLine(parseSearchQuery("foo bar"), "foobar")!.ranges).toEqual([[0, 6]]);
  });

  it("maps offsets to the original text across astral characters and İ", () => {
    const text = "😀 İstanbul ΟΔΟΣ x";
    const slices = (q: string) => matchLine(parseSearchQuery(q), text)!.ranges.map(([s, e]) => text.slice(s, e));
    expect(slices("stanbul οδος")).toEqual(["stanbul", "ΟΔΟΣ"]);
    expect(slices("İSTANBUL x")).toEqual(["İstanbul", "x"]);
    expect(slices("οδοσ")).toEqual(["ΟΔΟΣ"]);
    // İ is kept as is (its lowercase is two characters, and SQLite does not fold it): i does not find it.
    expect(matches("istanbul", text)).toBe(false);
  });
});

describe("scoreLine", () => {
  it("ranks more occurrences, rarer clauses and shorter lines higher", () => {
    const base = scoreLine([1], 100, [10], 1000);
    expect(base).toBeGreaterThan(0);
    expect(scoreLine([3], 100, [10], 1000)).toBeGreaterThan(base);
    expect(scoreLine([1], 100, [500], 1000)).toBeLessThan(base);
    expect(scoreLine([1], 5000, [10], 1000)).toBeLessThan(base);
    expect(scoreLine([1, 1], 100, [10, 10], 1000)).toBeCloseTo(2 * base);
  });

  it("is BM25 with k1 1.2, b 0.75 and lines of 2,000 characters on average", () => {
    const idf = Math.log(1 + (1000 - 10 + 0.5) / (10 + 0.5));
    expect(scoreLine([2], 2000, [10], 1000)).toBeCloseTo((idf * 2 * 2.2) / (2 + 1.2));
  });

  it("scores 0 without clauses, stays finite when hits exceed the total, and refuses mismatched lengths", () => {
    expect(scoreLine([], 10, [], 0)).toBe(0);
    expect(Number.isFinite(scoreLine([1], 10, [5], 0))).toBe(true);
    expect(scoreLine([1], 10, [5], 0)).toBeGreaterThan(0);
    expect(() => scoreLine([1], 10, [], 10)).toThrow(RangeError);
  });
});

describe("highlightSnippet", () => {
  const words = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `w${from + i}`).join(" ");

  it("marks a range at the start, cutting only the end", () => {
    const text = `needle ${words(100)}`;
    const snippet = highlightSnippet(text, [[0, 6]]);
    expect(snippet.startsWith("[[needle]] w0 w1")).toBe(true);
    expect(snippet.endsWith("…")).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(6 + 4 + 200 + 1);
  });

  it("centres a range in the middle of a long text, with … at both ends", () => {
    const text = `${words(200)} needle ${words(200, 200)}`;
    const at = text.indexOf("needle");
    const snippet = highlightSnippet(text, [[at, at + 6]]);
    expect(snippet.startsWith("…")).toBe(true);
    expect(snippet.endsWith("…")).toBe(true);
    expect(snippet).toContain(" [[needle]] w200 ");
    expect(snippet.indexOf("[[")).toBe(1 + 80);
  });

  it("marks every range in the window and none outside it", () => {
    const text = `aa ${"x".repeat(50)} bb cc ${"y".repeat(300)} dd`;
    const ranges: [number, number][] = [[0, 2], [54, 56], [57, 59], [text.length - 2, text.length]];
    // The window ends 200 characters past the first range's end (2); the y run starts at 60.
    expect(highlightSnippet(text, ranges)).toBe(`[[aa]] ${"x".repeat(50)} [[bb]] [[cc]] ${"y".repeat(202 - 60)}…`);
  });

  it("shows a range near the end whole, without a trailing …", () => {
    const text = `${words(100)} needle.`;
    const at = text.indexOf("needle");
    const snippet = highlightSnippet(text, [[at, at + 6]]);
    expect(snippet.endsWith("[[needle]].")).toBe(true);
    expect(snippet.startsWith("…")).toBe(true);
  });

  it("widens the window to a range it would cut", () => {
    const text = `start ${"z".repeat(10)} ${"q".repeat(40)} tail`;
    expect(highlightSnippet(text, [[0, 5], [17, 57]], { open: "<b>", close: "</b>" }, 0, 20)).toBe(`<b>start</b> ${"z".repeat(10)} <b>${"q".repeat(40)}</b>…`);
  });

  it("collapses whitespace runs, also inside a range, and trims the window's edges", () => {
    expect(highlightSnippet("  a \n\t b   c  ", [[3, 9]])).toBe("a[[ b ]] c");
    expect(highlightSnippet("x\n\n\ny", [])).toBe("x y");
  });

  it("never splits a surrogate pair at either cut", () => {
    const text = "😀".repeat(100) + "needle" + "😀".repeat(200);
    const at = text.indexOf("needle");
    for (const [before, after] of [[5, 5], [6, 6], [7, 7]] as const) {
      const snippet = highlightSnippet(text, [[at, at + 6]], undefined, before, after);
      expect(snippet).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
      expect(snippet).toContain("[[needle]]");
    }
  });

  it("marks astral text found by matchLine", () => {
    const text = "emoji 😀 party 🎉 time";
    const match = matchLine(parseSearchQuery('"😀 party"'), text)!;
    expect(highlightSnippet(text, match.ranges)).toBe("emoji [[😀 party]] 🎉 time");
  });

  it("gives the text's start when there is no range", () => {
    expect(highlightSnippet("short text", [])).toBe("short text");
    expect(highlightSnippet("x".repeat(300), [])).toBe("x".repeat(280) + "…");
  });
});

describe("grep equality (property)", () => {
  const ALPHABET = [..."abcdeABCDE xyz XYZ 0123 -_.:/\"*()'", "é", "É", "ß", "ö", "Ö", "Ж", "ж", "日", "本", "😀", "𝒜", "\t"];
  const WIDE = [...ALPHABET, "İ", "i", "I", "Σ", "σ", "ς", "µ", "μ", "ſ", "s", "S"];

  /** The query syntax for `text` as one word or phrase, or null when it cannot be written as one. */
  function asTerm(text: string): string | null {
    for (const candidate of [text, `"${text}"`]) {
      try {
        const parsed = parseSearchQuery(candidate);
        const term = parsed.clauses[0]?.any[0];
        if (parsed.clauses.length === 1 && parsed.clauses[0]!.any.length === 1 && term?.kind !== "prefix" && term?.text === text) return candidate;
      } catch {
        // not writable this way
      }
    }
    return null;
  }

  function run(seed: number, alphabet: readonly string[], fold: (s: string) => string) {
    const rnd = seededRandom(seed);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
    const str = (max: number) => Array.from({ length: Math.floor(rnd() * max) }, () => pick(alphabet)).join("");
    const bodies = Array.from({ length: 250 }, () => str(40));
    /** A piece of a body (by code point), or a random string that is rarely in any. */
    const piece = () => {
      const cps = Array.from(pick(bodies));
      if (rnd() < 0.25 || cps.length === 0) return str(5) || "q";
      const from = Math.floor(rnd() * cps.length);
      return cps.slice(from, from + 1 + Math.floor(rnd() * 6)).join("");
    };
    const table = ftsTable(bodies);
    let queries = 0;
    let hits = 0;
    try {
      while (queries < 250) {
        const clauses = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => Array.from({ length: rnd() < 0.2 ? 2 : 1 }, piece));
        const excluded = rnd() < 0.3 ? [piece()] : [];
        const written = [...clauses.map((c) => c.map(asTerm)), excluded.map(asTerm)];
        if (written.some((c) => c.some((t) => t === null))) continue;
        const q = [...written.slice(0, -1).map((c) => c.join(" OR ")), ...written.at(-1)!.map((t) => `-${t}`)].join(" ");
        const parsed = parseSearchQuery(q);
        const canonical = parseSearchQuery(describeQuery(parsed));
        queries++;
        const candidates = table.candidates(candidateExpression(parsed));
        bodies.forEach((body, i) => {
          const b = fold(body);
          const expected = clauses.every((c) => c.some((t) => b.includes(fold(t)))) && !excluded.some((t) => b.includes(fold(t)));
          const match = matchLine(parsed, body);
          expect(match !== null, `${JSON.stringify(q)} on ${JSON.stringify(body)}`).toBe(expected);
          expect(matchLine(canonical, body) !== null, `describeQuery of ${JSON.stringify(q)} on ${JSON.stringify(body)}`).toBe(expected);
          if (match) {
            hits++;
            expect(candidates.has(i), `candidates of ${JSON.stringify(q)} miss ${JSON.stringify(body)}`).toBe(true);
          }
        });
      }
    } finally {
      table.db.close();
    }
    expect(hits).toBeGreaterThan(500);
  }

  it.each([1, 2, 3])("matches iff every term is in the lowercased line, inside the FTS candidates, as its describeQuery does (seed %i)", (seed) => {
    run(seed, ALPHABET, (s) => s.toLowerCase());
  });

  it.each([4, 5])("matches iff every term is in the folded line with İ, sigma and µ, inside the FTS candidates (seed %i)", (seed) => {
    run(seed, WIDE, foldCase);
  });
});
