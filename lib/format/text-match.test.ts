/** Tests of matchSnippet, the search result snippets. */
import { describe, expect, it } from "vitest";

import { highlightRegex, matchSnippet, splitMatches } from "./text-match";

describe("matchSnippet (issue 29: readable search snippets)", () => {
  it("shows the decoded string holding the match, without JSON escapes", () => {
    const raw = JSON.stringify({ type: "assistant", message: { content: [{ type: "text", text: "First I saw.\n\n The same \"overloaded\" error again." }] } });
    expect(matchSnippet(raw, highlightRegex("overloaded"))).toBe('First I saw. The same "overloaded" error again.');
  });

  it("undoes escapes of a line that is not JSON", () => {
    expect(matchSnippet('{"text":"a\\nb overloaded', highlightRegex("overloaded"))).toBe('{"text":"a b overloaded');
  });

  it("cuts the text at its matches, case-insensitively, RE2 (?i) accepted", () => {
    expect(splitMatches("An Overloaded API", highlightRegex("(?i)overloaded"))).toEqual([
      { text: "An ", match: false },
      { text: "Overloaded", match: true },
      { text: " API", match: false },
    ]);
  });
});
