// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { ReconstructSessionResult, TimelineRow } from "@/lib/forensics/schema";

import { type TimelineFilters, TimelineView } from "./timeline-view";
import { timelineTime } from "./timeline-time";

vi.mock("next/navigation", () => ({
  useRouter: () => ({ push: vi.fn(), replace: vi.fn(), prefetch: vi.fn() }),
  useSearchParams: () => new URLSearchParams(window.location.search),
  usePathname: () => window.location.pathname,
}));

const FILTERS: TimelineFilters = { verbosity: "compact", source: null, type: null, row: null };

function event(index: number, timestamp: string | null): TimelineRow {
  return { index, timestamp, source: "main", file: "sessions/claude-code/s0001.jsonl", line: index + 1, event_type: "user_prompt", actor: "user", turn_ref: null, agent_id: null, payload: { headline: `event ${index + 1}` } };
}

/** reconstruct_session's answer for these rows, whatever page is asked for (they fit one). */
function serve(rows: TimelineRow[]) {
  const body: ReconstructSessionResult = { status: "ok", project_key: "P", session_ref: "S0001", event_count: rows.length, offset: 0, returned: rows.length, truncated: false, next_offset: null, timeline: rows };
  vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } })));
}

beforeEach(() => {
  window.history.replaceState(null, "", "/projects/P/sessions/S0001/timeline");
  // happy-dom lays nothing out: give the timeline's scroll box a screen's size, as a browser would.
  vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(1280);
  vi.spyOn(HTMLElement.prototype, "clientHeight", "get").mockReturnValue(800);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderTimeline(span: { startedAt: string | null; endedAt: string | null } | undefined) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <TimelineView projectKey="P" sessionRef="S0001" eventTypes={{ user_prompt: 3 }} filters={FILTERS} span={span} />
    </QueryClientProvider>,
  );
}

const times = () => screen.getAllByTestId("timeline-time").map((t) => t.textContent);

describe("the Timeline's times (issue 36)", () => {
  it("shows dates on every row when the session spans days, and marks the row a new day starts on", async () => {
    serve([event(0, "2026-05-01T23:59:58.000Z"), event(1, "2026-05-02T00:00:03.250Z"), event(2, "2026-05-16T10:00:00.000Z")]);
    renderTimeline({ startedAt: "2026-05-01T23:59:58.000Z", endedAt: "2026-05-16T10:00:00.000Z" });
    await waitFor(() => expect(times()).toHaveLength(3));
    expect(times()).toEqual(["2026-05-01 23:59:58.000", "2026-05-02 00:00:03.250", "2026-05-16 10:00:00.000"]);
    const days = screen.getAllByRole("listitem").map((row) => row.hasAttribute("data-day-start"));
    expect(days).toEqual([false, true, true]);
  });

  it("shows times alone for a session within one day", async () => {
    serve([event(0, "2026-05-01T09:00:00.000Z"), event(1, "2026-05-01T09:05:00.000Z"), event(2, null)]);
    renderTimeline({ startedAt: "2026-05-01T09:00:00.000Z", endedAt: "2026-05-01T09:05:00.000Z" });
    await waitFor(() => expect(times()).toHaveLength(3));
    expect(times()).toEqual(["09:00:00.000", "09:05:00.000", "—"]);
    expect(screen.getAllByRole("listitem").some((row) => row.hasAttribute("data-day-start"))).toBe(false);
  });

  it("shows dates when the rows span days though the session's span is unknown", async () => {
    serve([event(0, "2026-05-01T23:00:00.000Z"), event(1, "2026-05-02T01:00:00.000Z")]);
    renderTimeline(undefined);
    await waitFor(() => expect(times()).toEqual(["2026-05-01 23:00:00.000", "2026-05-02 01:00:00.000"]));
  });
});

describe("timelineTime", () => {
  it("gives UTC times, with the date when asked or when the day changed since the event before", () => {
    expect(timelineTime("2026-05-02T02:00:00+03:00", undefined, false)).toEqual({ text: "23:00:00.000", dayStart: false });
    expect(timelineTime("2026-05-02T00:00:01Z", "2026-05-01T23:59:59Z", false)).toEqual({ text: "2026-05-02 00:00:01.000", dayStart: true });
    expect(timelineTime("2026-05-02T00:00:01Z", null, true)).toEqual({ text: "2026-05-02 00:00:01.000", dayStart: false });
  });
});
