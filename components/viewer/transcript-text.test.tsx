// @vitest-environment happy-dom
// Transcript text as the page shows it (issue 35 item 10, issue 36 item 5): terminal colours as
// colour, no raw escape or control character, bidi controls as visible tokens, long lines wrapping.
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { ChainView } from "@/components/evidence/chain-view";
import { readChain } from "@/components/evidence/draft";
import { GlobalSearch } from "@/components/search/global-search";
import { SESSION_COLUMNS, type SessionRow } from "@/components/sessions/columns";
import type { SearchHit } from "@/lib/catalog/schema";
import { basicT1Chain } from "@/lib/evidence/__fixtures__/chains";
import { createCoreContext } from "@/lib/context";
import type { ViewerCompactRecord, ViewerFullRecord } from "@/lib/session-reader/schema";
import { readViewerLines } from "@/lib/session-reader/viewer-lines";
import { buildTestWorkspace, TEST_PROJECT_KEY } from "@/lib/testing/workspace-builder";

import { LineRow, type LineRowProps } from "./line-row";

/** Claude Code's `/context` output as a transcript stores it. */
const CONTEXT = "\u001b[?2026h\u001b[1mContext Usage\u001b[22m\n\u001b[38;2;136;136;136m⛁ ⛀ \u001b[39mclaude-opus-4-5 · 31k/200k tokens\u001b[?2026l";
const RLO = "\u202E";
const LONG = "x".repeat(200_000);

const user = (content: unknown) => JSON.stringify({ type: "user", timestamp: "2026-05-12T01:00:00Z", message: { role: "user", content } });
const LINES = [
  user(`pay invoice${RLO}fdp.exe now`),
  user(`<local-command-stdout>${CONTEXT}</local-command-stdout>`),
  user(LONG),
  user([{ type: "tool_result", tool_use_id: "t1", content: `\u001b[31mFAIL\u001b[0m see \u001b]8;;https://example.test\u0007the log\u001b]8;;\u0007 \u0007${RLO}` }]),
];

let compact: ViewerCompactRecord[];
let full: ViewerFullRecord[];
beforeAll(async () => {
  const ctx = createCoreContext(await buildTestWorkspace([{ ref: "S0001", content: `${LINES.join("\n")}\n` }]));
  const query = { projectKey: TEST_PROJECT_KEY, sessionRef: "S0001", start: 1, end: LINES.length };
  compact = (await readViewerLines(ctx, { ...query, mode: "compact" })).records as ViewerCompactRecord[];
  full = (await readViewerLines(ctx, { ...query, mode: "full" })).records as ViewerFullRecord[];
});
afterEach(cleanup);

function row(line: number, mode: "compact" | "full" = "compact") {
  const props: LineRowProps = {
    index: line - 1,
    line,
    lineCount: LINES.length,
    mode,
    status: "ready",
    record: (mode === "compact" ? compact : full)[line - 1],
    turnStart: null,
    band: 0,
    highlighted: false,
    marked: false,
    current: false,
    measureElement: () => undefined,
    onLineClick: vi.fn(),
  };
  render(<LineRow {...props} />);
  return screen.getByRole("listitem");
}

/** Every character that must never reach the page as is: C0 but tab and newline, C1, bidi controls. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe("transcript text in the viewer", () => {
  it("shows a right-to-left override in a message as a visible, named token (compact and raw)", () => {
    const compactItem = row(1);
    expect(compactItem.textContent).not.toMatch(RAW_CONTROL);
    const token = compactItem.querySelector("[data-control]");
    expect(token?.textContent).toBe("\\u202E");
    expect(token?.getAttribute("title")).toBe("U+202E right-to-left override");
    expect(compactItem.textContent).toContain("pay invoice\\u202Efdp.exe now");
    cleanup();
    const raw = row(1, "full");
    expect(raw.textContent).not.toMatch(RAW_CONTROL);
    expect(raw.querySelector("[data-control]")?.textContent).toBe("\\u202E");
  });

  it("renders /context terminal output in colour, with no escape sequence left (issue 36 item 5)", () => {
    const item = row(2);
    expect(item.textContent).not.toMatch(RAW_CONTROL);
    expect(item.textContent).not.toMatch(/\[\?2026|\[1m|\[22m|\[38;2/);
    const bold = within(item).getByText("Context Usage");
    expect(bold.closest("[data-ansi]")?.getAttribute("style")).toContain("font-weight: 600");
    expect(within(item).getByText("⛁ ⛀", { exact: false }).closest("[data-ansi]")?.getAttribute("style")).toContain("rgb(136, 136, 136)");
  });

  it("shows a tool result's colours and link text, strips the OSC-8 wrapper, and a bell and a bidi override as tokens", () => {
    const item = row(4);
    expect(item.textContent).not.toMatch(RAW_CONTROL);
    expect(item.textContent).toContain("FAIL see the log ␇\\u202E");
    expect(within(item).getByText("FAIL").closest("[data-ansi]")?.getAttribute("style")).toContain("rgb(187, 0, 0)");
    expect([...item.querySelectorAll("[data-control]")].map((t) => t.textContent)).toEqual(["␇", "\\u202E"]);
  });

  it("wraps a 200 KB line in compact mode and in raw mode, collapsed or open", () => {
    const item = row(3);
    expect(within(item).getByTestId("markdown").className).toContain("wrap-anywhere");
    cleanup();
    const raw = row(3, "full");
    const collapsed = raw.querySelector("code")!;
    expect(collapsed.className).toMatch(/\bmin-w-0\b.*\btruncate\b/);
    expect(collapsed.textContent!.length).toBeLessThanOrEqual(2_000);
    fireEvent.click(within(raw).getByRole("button", { name: "Expand line 3" }));
    const pre = raw.querySelector("pre")!;
    expect(pre.className).toMatch(/whitespace-pre-wrap/);
    expect(pre.className).toMatch(/break-all/);
    expect(pre.textContent!.length).toBeLessThanOrEqual(20_000);
  });
});

describe("transcript text outside the viewer", () => {
  it("a search snippet strips terminal sequences, marks its match and shows a bidi override as a token, wrapping", () => {
    const hit: SearchHit = { project_key: "proj-0123456789ab", session_ref: "S0001", session_id: "sid", machine: "laptop", session_title: "Context", session_hits: 1, file: { kind: "main", id: null, call_line: null }, line_number: 2, turn_ref: null, role: "user", time: null, snippet: `\u001b[1m[[Context]] Usage\u001b[22m ${RLO}x ${LONG.slice(0, 300)}`, score: 1 };
    const params = { q: "Context", project_key: "", source: "", since: "", until: "", file: "", tool: "", has_error: "", offset: 0 };
    render(<GlobalSearch params={params} result={{ status: "ok", query: "context", total: 1, sessions: 1, offset: 0, limit: 20, coverage: { sessions_indexed: 1, sessions_total: 1, lines_unchecked: 0 }, hits: [hit] }} />);
    const snippet = screen.getByRole("list", { name: "Search results" }).querySelector("p")!;
    expect(snippet.textContent).not.toMatch(RAW_CONTROL);
    expect(snippet.textContent).toMatch(/^Context Usage \\u202Ex x+$/);
    expect(snippet.querySelector("mark")?.textContent).toBe("Context");
    expect(snippet.querySelector("[data-control]")?.textContent).toBe("\\u202E");
    expect(snippet.className).toMatch(/break-all/);
  });

  it("the sessions table's first message is one escaped line clipped to its cell", () => {
    const column = SESSION_COLUMNS.find((c) => c.id === "first_user_message")!;
    render(<div>{column.cell({ first_user_message: `${CONTEXT}\n${RLO}${LONG}` } as SessionRow)}</div>);
    const cell = screen.getByTitle(/^Context Usage/);
    expect(cell.textContent).not.toMatch(RAW_CONTROL);
    expect(cell.textContent).toMatch(/^Context Usage ⛁ ⛀ claude-opus-4-5 · 31k\/200k tokens \\u202Ex+…$/);
    expect(cell.textContent!.length).toBeLessThanOrEqual(300);
    expect(cell.className).toMatch(/\bblock\b.*\btruncate\b/);
  });

  it("an evidence quote shows its colours and a bidi override as the viewer does", () => {
    const chain = readChain(basicT1Chain(), "T0001");
    chain.trigger.quoted_messages = [{ text: `\u001b[1mrun it\u001b[22m ${RLO}now`, citations: [{ lines: "2-2" }] }];
    render(<ChainView chain={chain} issues={[]} />);
    const quote = screen.getByText("run it").closest("p")!;
    expect(quote.textContent).toBe("“run it \\u202Enow”");
    expect(quote.querySelector("[data-control]")?.getAttribute("title")).toBe("U+202E right-to-left override");
    expect(quote.className).toContain("wrap-anywhere");
  });
});
