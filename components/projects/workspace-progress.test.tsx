// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import type { WorkspaceStatus } from "@/lib/pipeline/schema";

import { STATUS_POLL_MS } from "./queries";
import { WorkspaceProgress } from "./workspace-progress";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const INDEXING: WorkspaceStatus = { phase: "indexing", done: 4_210, total: 20_001, sessions_indexed: 4_210, sessions_total: 20_001, started_at: "2026-05-12T09:00:00.000Z", last_error: null };
const READY: WorkspaceStatus = { phase: "ready", done: 20_001, total: 20_001, sessions_indexed: 20_001, sessions_total: 20_001, started_at: null, last_error: null };

function renderProgress(initial: WorkspaceStatus) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  return render(
    <QueryClientProvider client={client}>
      <WorkspaceProgress initial={initial} />
    </QueryClientProvider>,
  );
}

describe("the home page's workspace progress (issue 36 item 2)", () => {
  it("shows a bar while the workspace is indexed for search", () => {
    renderProgress(INDEXING);
    expect(screen.getByRole("status").textContent).toBe("Indexing for search: 4,210 of 20,001 sessions");
    const bar = screen.getByRole("progressbar", { name: "Indexing for search" });
    expect([bar.getAttribute("aria-valuenow"), bar.getAttribute("aria-valuemax")]).toEqual(["4210", "20001"]);
    expect(screen.getByText("21%")).toBeTruthy();
  });

  it("shows the sync's files, and an indeterminate bar before the sync knows how many", () => {
    const { unmount } = renderProgress({ ...INDEXING, phase: "syncing", done: 120, total: 800, sessions_indexed: 0, sessions_total: 0 });
    expect(screen.getByRole("status").textContent).toBe("Syncing from your sources: 120 of 800 session files");
    unmount();
    renderProgress({ ...INDEXING, phase: "syncing", done: 0, total: 0, sessions_indexed: 0, sessions_total: 0 });
    expect(screen.getByRole("status").textContent).toBe("Syncing from your sources…");
    expect(screen.getByRole("progressbar").hasAttribute("aria-valuenow")).toBe(false);
  });

  it("once complete, says so in a line without a bar; an empty workspace shows nothing", () => {
    const { unmount } = renderProgress(READY);
    expect(screen.getByRole("status").textContent).toBe("Search index complete · 20,001 sessions");
    expect(screen.queryByRole("progressbar")).toBeNull();
    unmount();
    const empty = renderProgress({ ...READY, done: 0, total: 0, sessions_indexed: 0, sessions_total: 0 });
    expect(empty.container.textContent).toBe("");
  });

  it("shows the last error of a stage", () => {
    renderProgress({ ...READY, last_error: { stage: "full-text index", message: "io_error: the index lock was not taken within 30 s", at: "2026-05-12T09:00:00.000Z" } });
    expect(screen.getByText("The full-text index failed: io_error: the index lock was not taken within 30 s. It is tried again by itself.")).toBeTruthy();
  });

  it("polls the status every 2 s while not ready, and stops once ready", async () => {
    vi.useFakeTimers();
    const answers = [{ ...INDEXING, done: 12_000, sessions_indexed: 12_000 }, READY];
    const fetchMock = vi.fn(async (url: string) => {
      expect(url).toBe("/api/workspace-status");
      // A plain response: undici's body reading would wait on timers the test has faked.
      const body = answers.shift() ?? READY;
      return { ok: true, status: 200, json: async () => body } as Response;
    });
    vi.stubGlobal("fetch", fetchMock);
    /** Moves the clock on by `ms`, then a little more: the query hands its result over on a timer of its own. */
    const after = async (ms: number) => {
      await act(() => vi.advanceTimersByTimeAsync(ms));
      await act(() => vi.advanceTimersByTimeAsync(50));
    };
    renderProgress(INDEXING);
    expect(screen.getByRole("status").textContent).toBe("Indexing for search: 4,210 of 20,001 sessions");
    await after(STATUS_POLL_MS);
    expect(screen.getByRole("status").textContent).toBe("Indexing for search: 12,000 of 20,001 sessions");
    await after(STATUS_POLL_MS);
    expect(screen.getByRole("status").textContent).toBe("Search index complete · 20,001 sessions");
    await after(STATUS_POLL_MS * 5);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
