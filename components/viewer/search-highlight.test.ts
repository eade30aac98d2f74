// The regex the viewer marks a search query's matches with (issue 37): the query's positive terms, as search_sessions matches them.
import { describe, expect, it } from "vitest";

import { queryHighlightRegex, splitMatches } from "./search-highlight";

const marked = (query: string, text: string) =>
  splitMatches(text, queryHighlightRegex(query))
    .filter((p) => p.match)
    .map((p) => p.text);

describe("queryHighlightRegex", () => {
  it("marks every word, case-insensitively, wherever it occurs (a substring, as grep)", () => {
    expect(marked("timeout error", "A TimeOut; errors and timeouts")).toEqual(["TimeOut", "error", "timeout"]);
  });

  it("marks a phrase whole, and before a word inside it", () => {
    expect(marked('auth "exact phrase"', "the Exact Phrase is exact")).toEqual(["Exact Phrase"]);
    expect(marked('"auth module" auth', "auth module, auth")).toEqual(["auth module", "auth"]);
  });

  it("marks a prefix only at a word start", () => {
    expect(marked("migrat*", "Migration remigrate migrated_x _migrate")).toEqual(["Migrat", "migrat"]);
  });

  it("marks both sides of an OR, never an excluded term or a filter's value", () => {
    expect(marked("deadline OR timeout -test tool:Bash", "timeout test deadline Bash")).toEqual(["timeout", "deadline"]);
  });

  it("takes regex characters literally", () => {
    expect(marked('"a.b(c)*" [x]', "axb(c) a.b(c)* [x]")).toEqual(["a.b(c)*", "[x]"]);
    expect(marked("C:\\x path/to", "C:\\x path/to")).toEqual(["C:\\x", "path/to"]);
  });

  it("is null for a malformed query and for filters only", () => {
    expect(queryHighlightRegex('"open')).toBeNull();
    expect(queryHighlightRegex("is:error tool:Bash")).toBeNull();
    expect(queryHighlightRegex("")).toBeNull();
  });
});
