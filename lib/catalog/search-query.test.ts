/** The search query language (issue 37): what parses to what, and every malformed query's position and problem. */
import { describe, expect, it } from "vitest";

import { AGENTS, dateBounds, describeQuery, foldCase, formatQueryError, MAX_QUERY_LENGTH, parseSearchQuery, QueryError, type SearchTerm } from "@/lib/catalog/search-query";

const texts = (q: string) => parseSearchQuery(q).clauses.map((c) => c.any.map((t) => `${t.kind}:${t.text}`));

/** The QueryError parsing `query` throws. */
function errorOf(query: string): QueryError {
  try {
    parseSearchQuery(query);
  } catch (error) {
    if (error instanceof QueryError) return error;
    throw error;
  }
  throw new Error(`parsed without error: ${JSON.stringify(query)}`);
}

describe("parseSearchQuery", () => {
  it("ANDs words separated by any whitespace", () => {
    expect(texts("deprecated  warning\tnow")).toEqual([["word:deprecated"], ["word:warning"], ["word:now"]]);
  });

  it("reads a phrase up to the next quote, spaces kept as typed", () => {
    const parsed = parseSearchQuery('say "exact  phrase " end');
    expect(parsed.clauses[1]!.any[0]).toEqual({ kind: "phrase", text: "exact  phrase ", start: 4, end: 20 } satisfies SearchTerm);
    expect(texts('say "exact  phrase " end')).toEqual([["word:say"], ["phrase:exact  phrase "], ["word:end"]]);
  });

  it("groups terms joined by uppercase OR into one clause; lowercase or is a word", () => {
    expect(texts('foo OR bar OR "baz qux" next')).toEqual([["word:foo", "word:bar", "phrase:baz qux"], ["word:next"]]);
    expect(texts("a OR b c OR d")).toEqual([["word:a", "word:b"], ["word:c", "word:d"]]);
    expect(texts("foo or bar Or")).toEqual([["word:foo"], ["word:or"], ["word:bar"], ["word:Or"]]);
  });

  it("excludes -word and -phrase, with the - inside the term's span", () => {
    const parsed = parseSearchQuery('keep -drop -"two words" --dash');
    expect(parsed.excluded).toEqual([
      { kind: "word", text: "drop", start: 5, end: 10 },
      { kind: "phrase", text: "two words", start: 11, end: 23 },
      { kind: "word", text: "-dash", start: 24, end: 30 },
    ]);
    expect(texts("keep -drop")).toEqual([["word:keep"]]);
    expect(texts("foo-bar")).toEqual([["word:foo-bar"]]);
  });

  it("makes a trailing * a prefix and keeps any other * literal", () => {
    expect(texts("deprec* a*b *x x**")).toEqual([["prefix:deprec"], ["word:a*b"], ["word:*x"], ["prefix:x*"]]);
    expect(parseSearchQuery("deprec*").clauses[0]!.any[0]).toEqual({ kind: "prefix", text: "deprec", start: 0, end: 7 });
    expect(parseSearchQuery("ok -old*").excluded).toEqual([{ kind: "prefix", text: "old", start: 3, end: 8 }]);
  });

  it("keeps a quote inside a word as an ordinary character", () => {
    expect(texts('print("hi") type":"text')).toEqual([['word:print("hi")'], ['word:type":"text']]);
  });

  it("reads every filter, names case-insensitive, repeated values ORed and deduplicated", () => {
    const parsed = parseSearchQuery(
      'bug project:casefile session:S-12 Agent:codex agent:CLAUDE-CODE agent:codex Machine:laptop machine:build.1 machine:laptop role:user ROLE:tool tool:Bash file:"My Docs/a.ts" file:src/ is:error IS:Error after:2026-02-01 before:2026-03-01',
    );
    expect(parsed.filters).toEqual({
      project: ["casefile"],
      session: ["S-12"],
      agent: ["codex", "claude-code"],
      machine: ["laptop", "build.1"],
      role: ["user", "tool"],
      tool: ["Bash"],
      file: ["My Docs/a.ts", "src/"],
      is_error: true,
      after: "2026-02-01",
      before: "2026-03-01",
    });
    expect(texts("bug project:casefile")).toEqual([["word:bug"]]);
  });

  it("accepts every agent in AGENTS", () => {
    for (const agent of AGENTS) expect(parseSearchQuery(`agent:${agent}`).filters.agent).toEqual([agent]);
  });

  it("accepts a query of filters only, or of short terms", () => {
    expect(parseSearchQuery("agent:aider").clauses).toEqual([]);
    expect(parseSearchQuery("-noise tool:Bash").excluded).toHaveLength(1);
    expect(texts("go")).toEqual([["word:go"]]);
  });

  it("keeps as words the colon forms that are not filters: URLs, drive paths, times, C++ scopes, capitalized words", () => {
    expect(texts("http://x.io C:\\path c:/dir 12:30 std::move TypeError: Foo:bar")).toEqual([
      ["word:http://x.io"],
      ["word:C:\\path"],
      ["word:c:/dir"],
      ["word:12:30"],
      ["word:std::move"],
      ["word:TypeError:"],
      ["word:Foo:bar"],
    ]);
    expect(texts('"foo:bar"')).toEqual([["phrase:foo:bar"]]);
    expect(texts("file:///tmp/a.ts")).toEqual([["word:file:///tmp/a.ts"]]);
  });

  it("keeps a filter value with colons and slashes whole", () => {
    expect(parseSearchQuery("file:C:\\src\\a.ts").filters.file).toEqual(["C:\\src\\a.ts"]);
    expect(parseSearchQuery("file:/src/a.ts").filters.file).toEqual(["/src/a.ts"]);
  });

  it("accepts a query of exactly MAX_QUERY_LENGTH characters", () => {
    expect(texts("a".repeat(MAX_QUERY_LENGTH))[0]![0]).toHaveLength(MAX_QUERY_LENGTH + "word:".length);
  });
});

describe("parseSearchQuery errors", () => {
  // [query, position, problem]
  const cases: [string, number, string][] = [
    ["", 0, "the query is empty"],
    ["   ", 0, "the query is empty"],
    ["-foo", 0, "only excluded terms: nothing to search for"],
    ["  -foo -bar", 2, "only excluded terms: nothing to search for"],
    ['"unclosed', 0, "an unclosed quote"],
    ['foo "bar', 4, "an unclosed quote"],
    ['file:"My Docs', 5, "an unclosed quote"],
    ['""', 0, "an empty phrase"],
    ['ok -"  "', 4, "an empty phrase"],
    ['"foo"bar', 5, "text right after a closing quote"],
    ['file:"a b"c', 10, "text right after a closing quote"],
    ['"foo bar"*', 9, "prefix search (*) works on single words, not on quoted text"],
    ["OR foo", 0, "OR at the start of the query"],
    ["foo OR", 4, "OR at the end of the query"],
    ["foo OR OR bar", 7, "OR twice in a row"],
    ["foo OR -bar", 7, "a negated term inside an OR group"],
    ['-foo OR bar', 0, "a negated term inside an OR group"],
    ["foo OR agent:codex", 4, "OR joins search terms, not filters"],
    ["agent:codex OR foo", 12, "OR joins search terms, not filters"],
    ["foo -", 4, "a lone - excludes nothing"],
    ["- foo", 0, "a lone - excludes nothing"],
    ["*", 0, "a lone * matches nothing"],
    ["foo -*", 5, "a lone * matches nothing"],
    ["foo:bar", 0, "unknown filter foo:"],
    ["x -foo:bar", 3, "unknown filter foo:"],
    ["todo: fix", 0, "unknown filter todo:"],
    ["tool:", 5, "tool: needs a value"],
    ["tool: Bash", 5, "tool: needs a value"],
    ['x file:""', 7, "file: needs a value"],
    ["x -agent:codex", 2, "filters cannot be negated; -agent: is not supported"],
    ["-is:error x", 0, "filters cannot be negated; -is: is not supported"],
    ["agent:cursor", 6, 'unknown agent "cursor"'],
    ["role:system", 5, 'unknown role "system"'],
    ["is:warning", 3, 'unknown is "warning"'],
    ["after:2026-01-01 after:2026-02-01", 17, "a second after: filter"],
    ["x before:2026-01-01 Before:2026-01-01", 20, "a second before: filter"],
    ["after:2026-02-30", 6, 'after: needs a real date as YYYY-MM-DD, not "2026-02-30"'],
    ["before:2026-2-3", 7, 'before: needs a real date as YYYY-MM-DD, not "2026-2-3"'],
    ["after:yesterday", 6, 'after: needs a real date as YYYY-MM-DD, not "yesterday"'],
    ["before:2026-03-01 after:2026-03-01", 18, "after:2026-03-01 is not before before:2026-03-01, so no line can match"],
    ["a".repeat(MAX_QUERY_LENGTH + 1), MAX_QUERY_LENGTH, `the query is longer than ${MAX_QUERY_LENGTH} characters`],
    ["foo\u0000bar", 3, "the query contains a NUL character (U+0000)"],
  ];

  it.each(cases)("%j fails at %i: %s", (query, position, problem) => {
    const error = errorOf(query);
    expect({ position: error.position, problem: error.problem }).toEqual({ position, problem });
    expect(error.hint.length).toBeGreaterThan(0);
    expect(error.message).toBe(`at character ${position + 1}: ${problem}`);
  });

  it("is an Error named QueryError, formatted for people from 1", () => {
    const error = errorOf("OR");
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("QueryError");
    expect(formatQueryError({ position: 0, problem: "x" })).toBe("at character 1: x");
  });

  it("names the known filters in an unknown filter's hint", () => {
    expect(errorOf("foo:bar").hint).toContain("project: session: agent: machine: role: tool: file: is: after: before:");
    expect(errorOf("agent:cursor").hint).toContain(AGENTS.join(", "));
  });

  it("does not refuse excluded terms beside a positive one", () => {
    expect(parseSearchQuery('x -a -"b"').excluded).toHaveLength(2);
  });
});

describe("dateBounds", () => {
  it("gives after: inclusive from its day's start and before: exclusive at its day's start", () => {
    expect(dateBounds(parseSearchQuery("x after:2026-02-28 before:2026-03-01").filters)).toEqual({ gte: "2026-02-28T00:00:00.000Z", lt: "2026-03-01T00:00:00.000Z" });
    expect(dateBounds({ after: null, before: null })).toEqual({ gte: null, lt: null });
  });

  it("accepts a leap day only in a leap year", () => {
    expect(parseSearchQuery("after:2028-02-29").filters.after).toBe("2028-02-29");
    expect(errorOf("after:2026-02-29").position).toBe(6);
  });
});

describe("describeQuery", () => {
  it("writes a canonical form: folded case, duplicates dropped, filters in a fixed order", () => {
    expect(describeQuery(parseSearchQuery('tool:Bash Foo "foo" BAR OR "Baz Qux" OR bar -Old* agent:codex x*'))).toBe('foo bar OR "baz qux" x* -old* agent:codex tool:Bash');
    expect(describeQuery(parseSearchQuery('file:"My Docs/a" is:error before:2026-01-02 after:2026-01-01 --x'))).toBe('-"-x" file:"My Docs/a" is:error after:2026-01-01 before:2026-01-02');
  });

  it("quotes a term that would read differently bare", () => {
    expect(describeQuery(parseSearchQuery('"OR" "a*" "agent:x" "TypeError:" "-v" "C:\\x"'))).toBe('or "a*" "agent:x" "typeerror:" "-v" c:\\x');
    expect(describeQuery(parseSearchQuery("Foo:bar*"))).toBe("Foo:bar*");
  });

  it("is the same query again when parsed", () => {
    const queries = ['Foo "a b" OR c* -d tool:"x y" role:user', '"file:/x" "Agent:codex" file:///x "TOOL:" Tool:X*', "http://x.io TypeError: Foo:bar* print(\"x\")", 'İstanbul ΟΔΟΣ "µs"', "agent:codex"];
    for (const q of queries) {
      const once = describeQuery(parseSearchQuery(q));
      expect(describeQuery(parseSearchQuery(once))).toBe(once);
    }
  });
});

describe("foldCase", () => {
  it("lowercases without changing the length, keeping İ and folding final sigma and the micro sign", () => {
    expect(foldCase("HeLLo")).toBe("hello");
    expect(foldCase("İSTANBUL")).toBe("İstanbul");
    expect(foldCase("ΟΔΟΣ οδος")).toBe("οδοσ οδοσ");
    expect(foldCase("5µs")).toBe("5μs");
    expect(foldCase("𐐀x")).toBe("𐐨x");
  });
});
