// @vitest-environment happy-dom
// The viewer's navigation (issue 36): a fragment past the end is told, the keys keep `#L` in step,
// and the turn list and the evidence panel follow the turn being read.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { EvidencePanel } from "@/components/evidence/evidence-panel";
import { type CoreContext, createCoreContext } from "@/lib/context";
import { getEvidenceCard } from "@/lib/evidence/get-evidence-card";
import { readViewerLines } from "@/lib/session-reader/viewer-lines";
import { buildTestWorkspace, TEST_PROJECT_KEY, userLines } from "@/lib/testing/workspace-builder";
import { getSessionDetail } from "@/lib/workspace/projects";
import type { SessionDetail } from "@/lib/workspace/schema";
import { sessionTurnsInputSchema } from "@/lib/workspace/schema";
import { listSessionTurns } from "@/lib/workspace/session-turns";

import { SessionViewer } from "./session-viewer";

vi.mock("next/navigation", () => ({
  useRouter: () => ({ push: vi.fn(), replace: vi.fn(), prefetch: vi.fn() }),
  useSearchParams: () => new URLSearchParams(window.location.search),
  usePathname: () => window.location.pathname,
}));
vi.mock("@/server/actions/evidence", () => ({
  createEvidenceChainAction: vi.fn(),
  replaceEvidenceChainAction: vi.fn(),
  deleteEvidenceChainAction: vi.fn(),
}));

/** S0001: 63 lines, one turn. S0002: 1,000 lines, one turn per line (T0786 is line 786). */
const LONG_LINES = 1000;
const oneLineTurns = (n: number) => Array.from({ length: n }, (_, i) => ({ turn_ref: `T${String(i + 1).padStart(4, "0")}`, turn_start_line: i + 1, turn_end_line: i + 1 }));
let ctx: CoreContext;
let short: SessionDetail;
let long: SessionDetail;
beforeAll(async () => {
  ctx = createCoreContext(
    await buildTestWorkspace([
      { ref: "S0001", content: userLines(63), turns: [{ turn_ref: "T0001", turn_start_line: 1, turn_end_line: 63 }] },
      { ref: "S0002", content: userLines(LONG_LINES), turns: oneLineTurns(LONG_LINES) },
    ]),
  );
  short = await getSessionDetail(ctx, TEST_PROJECT_KEY, "S0001", undefined, { turns: false });
  long = await getSessionDetail(ctx, TEST_PROJECT_KEY, "S0002", undefined, { turns: false });
});

/** The dashboard's GET routes, answered by the same core calls. */
const requested: string[] = [];
async function answer(input: RequestInfo | URL): Promise<Response> {
  const url = new URL(String(input), "http://localhost");
  requested.push(`${url.pathname}?${url.searchParams}`);
  const ref = decodeURIComponent(url.pathname.split("/")[5]!);
  const q = Object.fromEntries(url.searchParams);
  const num = (key: string) => (q[key] === undefined ? undefined : Number(q[key]));
  if (url.pathname.endsWith("/lines")) {
    return Response.json(await readViewerLines(ctx, { projectKey: TEST_PROJECT_KEY, sessionRef: ref, start: num("start")!, end: num("end")!, mode: q.mode as "compact" }));
  }
  if (url.pathname.endsWith("/turns")) {
    const input = sessionTurnsInputSchema.parse({ project_key: TEST_PROJECT_KEY, session_ref: ref, offset: num("offset"), line: num("line"), to_line: num("to_line"), limit: num("limit"), usage: q.usage === "true" });
    return Response.json(await listSessionTurns(ctx, input));
  }
  if (url.pathname.endsWith("/evidence")) {
    return Response.json(await getEvidenceCard(ctx, TEST_PROJECT_KEY, ref, { offset: num("turns_offset")!, limit: num("turns_limit")! }));
  }
  return new Response("{}", { status: 404 });
}

const scrolledIntoView: Element[] = [];
beforeEach(() => {
  window.history.replaceState(null, "", `/projects/${TEST_PROJECT_KEY}/sessions/S0002`);
  requested.length = 0;
  scrolledIntoView.length = 0;
  vi.stubGlobal("fetch", vi.fn(answer));
  // happy-dom lays nothing out: give every box a screen's size, as a browser would.
  vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(1280);
  vi.spyOn(HTMLElement.prototype, "clientHeight", "get").mockReturnValue(800);
  // Line rows measure at their estimate (58 px, compact); the transcript scrolls over all of them.
  vi.spyOn(HTMLElement.prototype, "offsetHeight", "get").mockImplementation(function (this: HTMLElement) {
    return this.hasAttribute("data-index") ? 58 : 0;
  });
  vi.spyOn(HTMLElement.prototype, "scrollHeight", "get").mockReturnValue(58 * LONG_LINES + 800);
  vi.spyOn(Element.prototype, "scrollIntoView").mockImplementation(function (this: Element) {
    scrolledIntoView.push(this);
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderViewer(detail: SessionDetail, panel?: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <SessionViewer detail={detail} panel={panel} />
    </QueryClientProvider>,
  );
}

const transcript = () => screen.getByRole("region", { name: "Transcript lines" });
/** A key press, and the scroll event a browser sends after the scroll it made (happy-dom sends none). */
const press = (key: string) =>
  act(() => {
    fireEvent.keyDown(window, { key });
    fireEvent.scroll(transcript());
  });

describe("a fragment past the end", () => {
  it("says so instead of landing on the last line silently", async () => {
    window.history.replaceState(null, "", `/projects/${TEST_PROJECT_KEY}/sessions/S0001#L200`);
    renderViewer(short);
    expect(screen.getByRole("status").textContent).toBe("Line 200 is past the end: this session has 63 lines. Showing line 63.");
  });

  it("says so for a range running past the end, and not for a line that exists", () => {
    window.history.replaceState(null, "", `/projects/${TEST_PROJECT_KEY}/sessions/S0001#L60-L70`);
    renderViewer(short);
    expect(screen.getByRole("status").textContent).toBe("Lines 60–70 run past the end: this session has 63 lines. Showing 60–63.");
    cleanup();
    window.history.replaceState(null, "", `/projects/${TEST_PROJECT_KEY}/sessions/S0001#L63`);
    renderViewer(short);
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("is told for a line typed into Jump to line too", () => {
    window.history.replaceState(null, "", `/projects/${TEST_PROJECT_KEY}/sessions/S0001`);
    renderViewer(short);
    fireEvent.change(screen.getByLabelText("Jump to line"), { target: { value: "200" } });
    fireEvent.submit(screen.getByLabelText("Jump to line").closest("form")!);
    expect(window.location.hash).toBe("#L200");
    expect(screen.getByRole("status").textContent).toMatch(/^Line 200 is past the end: this session has 63 lines\./);
  });
});

describe("the line keys", () => {
  it("j, k, g and G move the selection and the URL's #L with it, without a history entry per key", () => {
    renderViewer(long);
    const entries = window.history.length;
    press("j");
    expect(window.location.hash).toBe("#L2");
    press("j");
    press("k");
    expect(window.location.hash).toBe("#L2");
    press("G");
    expect(window.location.hash).toBe(`#L${LONG_LINES}`);
    press("k");
    expect(window.location.hash).toBe(`#L${LONG_LINES - 1}`);
    press("g");
    expect(window.location.hash).toBe("#L1");
    expect(window.history.length).toBe(entries);
    expect(within(transcript()).getAllByRole("listitem").find((row) => row.getAttribute("data-current") === "true")?.getAttribute("data-line")).toBe("1");
  });
});

describe("the side lists", () => {
  it("follow the turn being read: the turn list loads its page, marks it and scrolls it into view", async () => {
    renderViewer(long);
    const turns = screen.getByRole("navigation", { name: "Turns" });
    await waitFor(() => expect(within(turns).getByRole("button", { name: /^T0001/ }).getAttribute("aria-current")).toBe("true"));
    // The reader scrolls to line 786 (rows are 58 px until measured, and happy-dom measures none).
    act(() => {
      transcript().scrollTop = 785 * 58;
      fireEvent.scroll(transcript());
    });
    const t786 = await within(turns).findByRole("button", { name: /^T0786/ }, { timeout: 5_000 });
    await waitFor(() => expect(t786.getAttribute("aria-current")).toBe("true"));
    expect(within(turns).getByRole("button", { name: /^T0001/ }).getAttribute("aria-current")).toBeNull();
    await waitFor(() => expect(scrolledIntoView).toContain(t786));
    expect(requested.filter((r) => r.includes("/turns?") && r.includes("usage=true")).map((r) => new URLSearchParams(r.split("?")[1]).get("offset"))).toEqual(["0", "200", "400", "600"]);
  });

  it("follow the turn being read: the evidence panel lists it, marks it and scrolls it into view", async () => {
    const cardRef = { projectKey: TEST_PROJECT_KEY, sessionRef: "S0002" };
    const initialCard = await getEvidenceCard(ctx, TEST_PROJECT_KEY, "S0002", { offset: 0, limit: 200 });
    renderViewer(long, <EvidencePanel cardRef={cardRef} initialCard={initialCard} lineCount={LONG_LINES} />);
    const panel = screen.getByRole("list", { name: "Turns and their evidence" });
    await waitFor(() => expect(within(panel).getByRole("listitem", { name: "Turn T0001" }).getAttribute("aria-current")).toBe("true"));
    // Selected with the keys: the selected line's turn is the one read while it is on screen.
    press("G");
    const last = await within(panel).findByRole("listitem", { name: `Turn T${LONG_LINES}` }, { timeout: 5_000 });
    await waitFor(() => expect(last.getAttribute("aria-current")).toBe("true"));
    expect(within(panel).getByRole("listitem", { name: "Turn T0001" }).getAttribute("aria-current")).toBeNull();
    await waitFor(() => expect(scrolledIntoView).toContain(last));
  });
});
