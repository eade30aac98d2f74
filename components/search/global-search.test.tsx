// @vitest-environment happy-dom
// The global search page (issues 25, 37): hits grouped by session, the summary, the notices (index
// still filling, candidates left unchecked), the query syntax, a malformed query's message and hint.
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import { GlobalSearch, type GlobalSearchParams } from "@/components/search/global-search";
import type { SearchHit, SearchSessionsResult } from "@/lib/catalog/schema";

const PARAMS: GlobalSearchParams = { q: "timeout", project_key: "", source: "", since: "", until: "", file: "", tool: "", has_error: "", offset: 0 };
const MAIN = { kind: "main", id: null, call_line: null } as const;

function hit(over: Partial<SearchHit> = {}): SearchHit {
  return {
    project_key: "proj-0123456789ab",
    session_ref: "S0001",
    session_id: "sid",
    machine: "laptop",
    session_title: "Fix the login timeout",
    session_hits: 1,
    file: MAIN,
    line_number: 7,
    turn_ref: "T0001",
    role: "assistant",
    time: "2026-05-12T09:04:00Z",
    snippet: "a [[timeout]] here",
    score: 1.5,
    ...over,
  };
}

function result(hits: SearchHit[], over: Partial<SearchSessionsResult> = {}): SearchSessionsResult {
  return { status: "ok", query: "timeout", total: hits.length, sessions: new Set(hits.map((h) => h.session_ref)).size, offset: 0, limit: 20, coverage: { sessions_indexed: 20_000, sessions_total: 20_000, lines_unchecked: 0 }, hits, ...over };
}

afterEach(cleanup);

describe("the global search page", () => {
  it("groups the hits by session: a header with title, project · session and its matching lines, then each hit", () => {
    const hits = [
      hit({ session_hits: 3, line_number: 7 }),
      hit({ session_hits: 3, line_number: 2, file: { kind: "subagent", id: "agent-a1", call_line: null }, turn_ref: null, role: "tool" }),
      hit({ session_hits: 3, line_number: 1, file: { kind: "tool_result", id: "toolu_01", call_line: 12 }, turn_ref: null, role: "tool" }),
      hit({ session_ref: "S0002", session_title: null, session_hits: 1, line_number: 40, time: null, role: "user" }),
    ];
    render(<GlobalSearch params={PARAMS} result={result(hits, { total: 4, sessions: 2 })} />);
    const list = screen.getByRole("list", { name: "Search results" });
    const groups = within(list).getAllByRole("listitem").filter((li) => li.parentElement === list);
    expect(groups).toHaveLength(2);

    const first = within(groups[0]!);
    expect(first.getByRole("link", { name: "Fix the login timeout" }).getAttribute("href")).toBe("/projects/proj-0123456789ab/sessions/S0001");
    expect(groups[0]!.textContent).toContain("proj-0123456789ab · S0001");
    expect(first.getByText("3 matching lines")).toBeTruthy();
    const links = first.getAllByTestId("search-hit");
    expect(links.map((l) => l.textContent)).toEqual(["line 7", "subagent agent-a1 · line 2", "tool result toolu_01 · called at line 12"]);
    expect(links.map((l) => l.getAttribute("href"))).toEqual([
      "/projects/proj-0123456789ab/sessions/S0001?q=timeout#L7",
      "/projects/proj-0123456789ab/sessions/S0001?agent=agent-a1&q=timeout#L2",
      "/projects/proj-0123456789ab/sessions/S0001?q=timeout#L12",
    ]);
    // The hit's turn, time and role beside its link; the snippet with its match marked.
    const row = links[0]!.closest("li")!;
    expect(row.textContent).toContain("T0001");
    expect(row.querySelector("time")?.getAttribute("dateTime")).toBe("2026-05-12T09:04:00Z");
    expect(row.textContent).toContain("assistant");
    expect(row.querySelector("mark")?.textContent).toBe("timeout");

    expect(within(groups[1]!).getByRole("link", { name: "(untitled session)" })).toBeTruthy();
    expect(within(groups[1]!).getByText("1 matching line")).toBeTruthy();
    expect(screen.getByTestId("search-summary").textContent).toBe("2 sessions, 4 lines; showing lines 1–4.");
  });

  it("names each session's machine when the page's sessions came from more than one, and only then (issue 39)", () => {
    const { unmount } = render(<GlobalSearch params={PARAMS} result={result([hit(), hit({ session_ref: "S0002" })])} />);
    expect(screen.getByRole("list", { name: "Search results" }).textContent).not.toContain("laptop");
    unmount();
    render(<GlobalSearch params={PARAMS} result={result([hit(), hit({ session_ref: "S0002", machine: "build-box" })])} />);
    const groups = within(screen.getByRole("list", { name: "Search results" })).getAllByRole("listitem").filter((li) => li.getAttribute("aria-label")?.includes("·"));
    expect(groups.map((g) => g.textContent?.includes("proj-0123456789ab · S0001 · laptop"))).toContain(true);
    expect(groups.map((g) => g.textContent?.includes("proj-0123456789ab · S0002 · build-box"))).toContain(true);
  });

  it("offers a Machine filter (a GET field, like the others) only when the workspace has two or more machines, keeping the chosen one (issue 39)", () => {
    const { unmount } = render(<GlobalSearch params={PARAMS} result={null} machines={["laptop"]} />);
    expect(screen.queryByRole("combobox", { name: "Machine" })).toBeNull();
    unmount();
    const again = render(<GlobalSearch params={{ ...PARAMS, machine: "beta" }} result={null} machines={["alpha", "beta"]} />);
    const select = screen.getByRole("combobox", { name: "Machine" }) as HTMLSelectElement;
    expect([select.name, select.value, select.closest("form")?.getAttribute("method")]).toEqual(["machine", "beta", "get"]);
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ["", "any machine"],
      ["alpha", "alpha"],
      ["beta", "beta"],
    ]);
    again.unmount();
    // A link to a machine the list no longer has keeps it chosen.
    render(<GlobalSearch params={{ ...PARAMS, machine: "gone" }} result={null} machines={["laptop"]} />);
    expect((screen.getByRole("combobox", { name: "Machine" }) as HTMLSelectElement).value).toBe("gone");
  });

  it("a hit carries the query as understood to the viewer, without the filters its session answers", () => {
    render(<GlobalSearch params={PARAMS} result={result([hit()], { query: "timeout agent:codex machine:laptop project:proj-0123456789ab tool:Bash" })} />);
    expect(screen.getByTestId("search-hit").getAttribute("href")).toBe(`/projects/proj-0123456789ab/sessions/S0001?q=${encodeURIComponent("timeout tool:Bash")}#L7`);
  });

  it("a persisted tool result with no calling line is named but not linked", () => {
    render(<GlobalSearch params={PARAMS} result={result([hit({ file: { kind: "tool_result", id: "toolu_09", call_line: null }, line_number: 3 })])} />);
    const label = screen.getByTestId("search-hit");
    expect(label.tagName).toBe("SPAN");
    expect(label.textContent).toBe("tool result toolu_09 · line 3");
  });

  it("says how many sessions are searchable while the index is being filled, above the hits it has", () => {
    render(<GlobalSearch params={PARAMS} result={result([hit()], { status: "indexing", coverage: { sessions_indexed: 12_345, sessions_total: 20_000, lines_unchecked: 0 } })} />);
    expect(screen.getByRole("status").textContent).toMatch(/Still indexing: 12,345 of 20,000 sessions are searchable so far/);
    expect(screen.getAllByTestId("search-hit")).toHaveLength(1);
  });

  it("says how many candidate lines were left unchecked", () => {
    render(<GlobalSearch params={PARAMS} result={result([hit()], { coverage: { sessions_indexed: 1, sessions_total: 1, lines_unchecked: 1_204 } })} />);
    expect(screen.getByRole("status").textContent).toMatch(/^Not every candidate was checked: 1,204 lines that may match were left unread/);
  });

  it("says nothing of the index once it covers every session, and counts one session and line in the singular", () => {
    render(<GlobalSearch params={PARAMS} result={result([hit()])} />);
    expect(screen.queryByRole("status")).toBeNull();
    expect(screen.getByTestId("search-summary").textContent).toBe("1 session, 1 line; showing lines 1–1.");
  });

  it("shows a malformed query's message and hint, and keeps the form", () => {
    const invalid = { status: "invalid" as const, errors: [{ field: "query", message: "at character 5: an empty phrase", hint: 'put the text to search for between the quotes: "exact phrase"' }] };
    render(<GlobalSearch params={{ ...PARAMS, q: 'abc ""' }} result={invalid} />);
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain("query: at character 5: an empty phrase");
    expect(alert.textContent).toContain('put the text to search for between the quotes: "exact phrase"');
    expect(screen.getByRole("search")).toBeTruthy();
  });

  it("has the query syntax at hand: operators, filters and examples that open as searches", () => {
    render(<GlobalSearch params={PARAMS} result={null} />);
    const help = screen.getByText("Query syntax").closest("details")!;
    for (const term of ['"exact phrase"', "timeout OR deadline", "-test", "migrat*", "project:KEY", "session:REF", "agent:claude-code", "role:user", "tool:Bash", "file:src/auth", "is:error", "after:2026-05-01"]) {
      expect(within(help).getByText(term)).toBeTruthy();
    }
    const examples = within(help).getAllByRole("link");
    expect(examples.length).toBeGreaterThanOrEqual(3);
    expect(examples[0]!.getAttribute("href")).toBe(`/search?q=${encodeURIComponent('"permission denied" tool:Bash').replace(/%20/g, "+")}`);
  });
});
