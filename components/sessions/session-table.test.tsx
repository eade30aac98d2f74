// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { createCoreContext } from "@/lib/context";
import { listSessions } from "@/lib/forensics/__fixtures__/list-sessions";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";
import type { ListSessionsResult } from "@/lib/workspace/schema";

import { DEFAULT_SESSION_LIST_PARAMS } from "./session-list-params";
import { SessionTable } from "./session-table";

/** Saves run real tool calls: on a loaded machine they take longer than Testing Library's default second. */
const SLOW = { timeout: 10_000 };

const push = vi.fn();
vi.mock("next/navigation", () => ({
  useRouter: () => ({ push, replace: vi.fn(), prefetch: vi.fn() }),
  useSearchParams: () => new URLSearchParams(window.location.search),
  usePathname: () => window.location.pathname,
}));

// The first page as the project page reads it: list_sessions over a workspace of two sessions.
let page: ListSessionsResult;
beforeAll(async () => {
  const ctx = createCoreContext(await buildTestWorkspace([{ ref: "S0001", content: userLines(3) }, { ref: "S0002", content: userLines(5) }]));
  page = (await listSessions(ctx, { project_key: TEST_PROJECT_KEY })) as ListSessionsResult;
});
beforeEach(() => {
  window.history.replaceState(null, "", `/projects/${TEST_PROJECT_KEY}`);
  // happy-dom lays nothing out: give the table's scroll box a screen's size, as a browser would.
  vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(1280);
  vi.spyOn(HTMLElement.prototype, "clientHeight", "get").mockReturnValue(800);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  push.mockClear();
});

function withQueries(node: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}>{node}</QueryClientProvider>);
}

describe("the session table", () => {
  it("lists the project's sessions with their refs, counts and first messages", () => {
    withQueries(<SessionTable projectKey={TEST_PROJECT_KEY} firstPage={{ params: DEFAULT_SESSION_LIST_PARAMS, page }} />);
    const table = screen.getByRole("table", { name: "Sessions" });
    expect(screen.getByText("2 sessions")).toBeTruthy();
    const rows = within(table).getAllByRole("row").filter((r) => within(r).queryAllByRole("cell").length > 0);
    expect(rows).toHaveLength(2);
    const first = within(table).getByRole("link", { name: "S0001" });
    expect(first.getAttribute("href")).toBe(`/projects/${TEST_PROJECT_KEY}/sessions/S0001`);
    expect(table.textContent).toContain("message 1");
  });

  it("opens a session when its row is clicked", () => {
    withQueries(<SessionTable projectKey={TEST_PROJECT_KEY} firstPage={{ params: DEFAULT_SESSION_LIST_PARAMS, page }} />);
    const cell = within(screen.getByRole("table")).getAllByRole("cell")[1]!;
    fireEvent.click(cell);
    expect(push).toHaveBeenCalledTimes(1);
    expect(push.mock.calls[0]![0]).toMatch(new RegExp(`^/projects/${TEST_PROJECT_KEY}/sessions/S000[12]$`));
  });

  it("sorts by a column header: the sort goes into the URL, and the header says how it is sorted", () => {
    withQueries(<SessionTable projectKey={TEST_PROJECT_KEY} firstPage={{ params: DEFAULT_SESSION_LIST_PARAMS, page }} />);
    const started = screen.getAllByRole("columnheader").find((h) => h.textContent?.includes("Started"))!;
    expect(started.getAttribute("aria-sort")).toBe("descending");
    fireEvent.click(within(screen.getAllByRole("columnheader").find((h) => h.textContent?.includes("Turns"))!).getByRole("button"));
    expect(new URLSearchParams(window.location.search).get("sort")).toBe("turn_count");
  });

  it("says when a project has no sessions", () => {
    const empty = { ...page, sessions: [], total: 0 };
    withQueries(<SessionTable projectKey={TEST_PROJECT_KEY} firstPage={{ params: DEFAULT_SESSION_LIST_PARAMS, page: empty }} />);
    expect(screen.getByText("0 sessions")).toBeTruthy();
    expect(screen.getByText("This project has no sessions.")).toBeTruthy();
  });

  it("says a source or risk filter matched nothing, not that the project is empty, and clears the filters", () => {
    const empty = { ...page, sessions: [], total: 0 };
    window.history.replaceState(null, "", "/?source=gemini-cli&risk=high");
    withQueries(<SessionTable projectKey={TEST_PROJECT_KEY} firstPage={{ params: { ...DEFAULT_SESSION_LIST_PARAMS, source: "gemini-cli", risk: "high" }, page: empty }} />);
    expect(screen.getByText("No sessions match these filters.")).toBeTruthy();
    expect(screen.queryByText("This project has no sessions.")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Clear the filters" }));
    const search = new URLSearchParams(window.location.search);
    expect([search.get("source"), search.get("risk")]).toEqual([null, null]);
  });

  it("shows no Machine column or filter when every session came from one machine (issue 39)", () => {
    withQueries(<SessionTable projectKey={TEST_PROJECT_KEY} firstPage={{ params: DEFAULT_SESSION_LIST_PARAMS, page }} />);
    expect(page.machines).toHaveLength(1);
    expect(screen.getAllByRole("columnheader").some((h) => h.textContent?.includes("Machine"))).toBe(false);
    expect(screen.queryByLabelText("Machine")).toBeNull();
  });

  it("shows each session's machine and filters by it when the sessions came from two machines (issue 39)", () => {
    const two = { ...page, machines: ["alpha", "beta"], sessions: page.sessions.map((s, i) => ({ ...s, machine: i === 0 ? "alpha" : "beta" })) };
    withQueries(<SessionTable projectKey={TEST_PROJECT_KEY} firstPage={{ params: DEFAULT_SESSION_LIST_PARAMS, page: two }} />);
    expect(screen.getAllByRole("columnheader").some((h) => h.textContent?.includes("Machine"))).toBe(true);
    const table = screen.getByRole("table", { name: "Sessions" });
    expect(within(table).getByText("alpha")).toBeTruthy();
    expect(within(table).getByText("beta")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Machine"), { target: { value: "beta" } });
    expect(new URLSearchParams(window.location.search).get("machine")).toBe("beta");
  });

  it("shows an error with a retry when the list cannot be loaded", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify({ error: { code: "io_error", message: "disk unreadable" } }), { status: 500, headers: { "content-type": "application/json" } })));
    withQueries(<SessionTable projectKey={TEST_PROJECT_KEY} />);
    const alert = await screen.findByRole("alert", undefined, SLOW);
    expect(alert.textContent).toContain("Could not load sessions.");
    expect(within(alert).getByRole("button", { name: "Retry" })).toBeTruthy();
  });
});
