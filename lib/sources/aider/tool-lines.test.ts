import { describe, expect, it } from "vitest";

import {
  isErrorLine,
  parseCostLine,
  parseEditOutcome,
  parseModelAnnouncement,
  parseTokenFigure,
  parseTokensReport,
} from "@/lib/sources/aider/tool-lines";

describe("parseTokenFigure", () => {
  it.each([
    ["412", 412],
    ["1,234", 1234],
    ["3.2k", 3200],
    ["12k", 12000],
    ["1.5M", 1_500_000],
    ["2.25m", 2_250_000],
    ["0.3k", 300],
  ])("reads %s as %d", (figure, count) => expect(parseTokenFigure(figure)).toBe(count));

  it("refuses what is not a figure", () => {
    expect(parseTokenFigure("k")).toBeNull();
    expect(parseTokenFigure("3.2x")).toBeNull();
  });
});

describe("parseTokensReport", () => {
  it("reads sent, received and the message cost", () => {
    expect(parseTokensReport("Tokens: 3.2k sent, 412 received. Cost: $0.01 message, $0.05 session.", "gpt-4o")).toEqual({
      model: "gpt-4o",
      input: 3200,
      output: 412,
      cacheRead: 0,
      cacheWrite: 0,
      reasoning: 0,
      costUsd: 0.01,
      approximate: true,
    });
  });

  it("takes cache writes and hits out of sent: fresh input only", () => {
    expect(parseTokensReport("Tokens: 12k sent, 8.2k cache write, 1.1k cache hit, 412 received.", null)).toMatchObject({
      input: 2700,
      cacheWrite: 8200,
      cacheRead: 1100,
      output: 412,
      costUsd: null,
    });
    expect(parseTokensReport("Tokens: 5k sent, 4.1k cache hit, 90 received. Cost: $0.00 message, $0.02 session.", null)).toMatchObject({
      input: 900,
      cacheRead: 4100,
      cacheWrite: 0,
      costUsd: 0,
    });
    // Rounded figures may make the cache exceed what was sent: fresh input never goes below 0.
    expect(parseTokensReport("Tokens: 1.0k sent, 600 cache write, 500 cache hit, 1 received.", null)!.input).toBe(0);
  });

  it("reads the older wording (commas, request cost) and a report without cost", () => {
    expect(parseTokensReport("Tokens: 1,845 sent, 12 received. Cost: $0.06 request, $0.06 session.", null)).toMatchObject({ input: 1845, output: 12, costUsd: 0.06 });
    expect(parseTokensReport("Tokens: 900 sent, 1,234 received.", null)).toMatchObject({ input: 900, output: 1234, costUsd: null });
  });

  it("refuses a half-written report", () => {
    expect(parseTokensReport("Tokens: 2.5k sent, 3", null)).toBeNull();
    expect(parseTokensReport("Tokens: 2.5k sent, 30 received. Cost: $0.0", null)).toBeNull();
  });
});

describe("parseCostLine", () => {
  it("reads the message cost of the report's second line", () => {
    expect(parseCostLine("Cost: $0.05 message, $0.10 session.  ")).toBe(0.05);
    expect(parseCostLine("Cost: $0.0042 request, $1.00 session.")).toBe(0.0042);
    expect(parseCostLine("Cost: high")).toBeNull();
  });
});

describe("parseModelAnnouncement", () => {
  it("reads the main model of each wording", () => {
    expect(parseModelAnnouncement("Model: gpt-4o with diff edit format")).toBe("gpt-4o");
    expect(parseModelAnnouncement("Main model: anthropic/claude-3-7-sonnet-20250219 with diff edit format, infinite output")).toBe(
      "anthropic/claude-3-7-sonnet-20250219",
    );
    expect(parseModelAnnouncement("Models: gpt-4 with diff edit format, weak model gpt-3.5-turbo")).toBe("gpt-4");
    expect(parseModelAnnouncement("Model: o3-mini")).toBe("o3-mini");
  });

  it("ignores helper models and other lines", () => {
    expect(parseModelAnnouncement("Weak model: gpt-4o-mini")).toBeNull();
    expect(parseModelAnnouncement("Editor model: gpt-4o with editor-diff edit format")).toBeNull();
    expect(parseModelAnnouncement("Model gpt-4o has hit a token limit!")).toBeNull();
  });
});

describe("parseEditOutcome", () => {
  it("names the file of each outcome and marks a refused edit", () => {
    expect(parseEditOutcome("Applied edit to src/a b.py")).toEqual({ path: "src/a b.py", isError: false });
    expect(parseEditOutcome("Did not apply edit to src/skip.py (--dry-run)")).toEqual({ path: "src/skip.py", isError: false });
    expect(parseEditOutcome("Creating empty file src/new.py")).toEqual({ path: "src/new.py", isError: false });
    expect(parseEditOutcome("Skipping edits to src/other.py")).toEqual({ path: "src/other.py", isError: true });
    expect(parseEditOutcome("Added src/a.py to the chat")).toBeNull();
  });
});

describe("isErrorLine", () => {
  it.each([
    "The LLM did not conform to the edit format.",
    "# 2 SEARCH/REPLACE blocks failed to match!",
    "litellm.RateLimitError: rate limit exceeded",
    "Exception while updating files:",
    "Model gpt-4o has hit a token limit!",
    "Unable to write to chat history file",
  ])("knows %j as an error", (line) => expect(isErrorLine(line)).toBe(true));

  it.each(["Applied edit to src/error.py", "Added src/errors.py to the chat", "Commit 1a2b3c4 fix: handle Error cases", "Tokens: 1k sent, 2 received."])(
    "does not take %j for one",
    (line) => expect(isErrorLine(line)).toBe(false),
  );
});
