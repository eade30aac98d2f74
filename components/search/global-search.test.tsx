// @vitest-environment happy-dom
// The global search page while the full-text index is still being filled (issue 25).
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import { GlobalSearch, type GlobalSearchParams } from "@/components/search/global-search";
import type { SearchSessionsResult } from "@/lib/catalog/schema";

const PARAMS: GlobalSearchParams = { q: "timeout", project_key: "", source: "", since: "", until: "", file: "", tool: "", has_error: "", offset: 0 };
const HIT = { project_key: "proj-0123456789ab", session_ref: "S0001", session_id: "sid", line_number: 7, turn_ref: "T0001", snippet: "a [[timeout]] here", score: 1.5 };
const result = (status: "ok" | "indexing", indexed: number): SearchSessionsResult => ({ status, total: 1, offset: 0, limit: 20, coverage: { sessions_indexed: indexed, sessions_total: 20_000 }, hits: [HIT] });

afterEach(cleanup);

describe("the global search page", () => {
  it("says how many sessions are searchable while the index is being filled, above the hits it has", () => {
    render(<GlobalSearch params={PARAMS} result={result("indexing", 12_345)} />);
    expect(screen.getByRole("status").textContent).toMatch(/Still indexing: 12,345 of 20,000 sessions are searchable so far/);
    expect(screen.getByRole("list", { name: "Search results" }).querySelectorAll("li")).toHaveLength(1);
  });

  it("says nothing of the index once it covers every session", () => {
    render(<GlobalSearch params={PARAMS} result={result("ok", 20_000)} />);
    expect(screen.queryByRole("status")).toBeNull();
    expect(screen.getByText(/1 matching line, best first/)).toBeTruthy();
  });
});
