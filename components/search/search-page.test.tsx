// @vitest-environment happy-dom
// The global search page's own reading of its URL (issue 35 items 6 and 8): what the tool refuses is said on the page, never an error page.
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";

import GlobalSearchPage from "@/app/(dashboard)/search/page";
import { fillFullText } from "@/lib/catalog/full-text-index";
import { refreshCatalog } from "@/lib/catalog/refresh";
import { createCoreContext } from "@/lib/context";
import { buildTestWorkspace, userLines } from "@/lib/testing/workspace-builder";

beforeAll(async () => {
  process.env.CASEFILE_WORKSPACE = await buildTestWorkspace([{ ref: "S0001", content: userLines(3), turns: [{ turn_ref: "T0001", turn_start_line: 1, turn_end_line: 3 }] }]);
});

afterEach(cleanup);

/** The page for `search` (its URL's values, as Next passes them), rendered. */
async function renderPage(search: Record<string, string>) {
  render(await GlobalSearchPage({ searchParams: Promise.resolve(search) }));
}

describe("the global search page refuses with a message", () => {
  it.each([
    ["a query with a NUL character (?q=abc%00def)", { q: "abc\u0000def" }, "query: at character 4: the query contains a NUL character (U+0000)"],
    ["an offset that is not digits only", { q: "message", offset: "1e1" }, 'offset: offset must be a whole number (a JSON number), not the string "1e1"'],
    ["a since that is not a day", { q: "message", since: "2026-02-30" }, "since: since must be a date that exists"],
  ])("%s", async (_label, search, message) => {
    await renderPage(search);
    expect(screen.getByRole("alert").textContent).toContain(message);
    expect(screen.getByRole("search")).toBeTruthy();
  });
});

describe("the global search page's machine filter (issue 39)", () => {
  beforeAll(async () => {
    const ctx = createCoreContext(process.env.CASEFILE_WORKSPACE!);
    await refreshCatalog(ctx);
    await fillFullText(ctx);
  });

  it("adds machine:NAME to the query: another machine's sessions are not this workspace's", async () => {
    await renderPage({ q: "message" });
    expect(screen.getByTestId("search-summary").textContent).toMatch(/^1 session/);
    cleanup();
    await renderPage({ q: "message", machine: "no-such-machine" });
    expect(screen.getByTestId("search-summary").textContent).toBe("No matches.");
    cleanup();
    // The filter alone is a search: every line of that machine's sessions.
    await renderPage({ machine: "no-such-machine" });
    expect(screen.getByTestId("search-summary").textContent).toBe("No matches.");
  });

  it("refuses a machine that is not a machine name, saying so", async () => {
    await renderPage({ q: "message", machine: "a b" });
    expect(screen.getByRole("alert").textContent).toContain('machine: "a b" is not a machine name');
  });
});
