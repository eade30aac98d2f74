import type { APIRequestContext } from "@playwright/test";

import type { SearchSessionsResult } from "../lib/catalog/schema";
import type { ReconstructSessionResult } from "../lib/forensics/schema";
import type { ListSessionsResult } from "../lib/workspace/schema";
import { expect, test } from "./fixtures";
import { HAS_CORPUS, NO_CORPUS_REASON } from "./paths";

/** The 2.1.3 corpus session (era 2): four subagents and persisted tool results beside it. */
const ERA2 = { projectKey: "claude-bug-39819f3b5cb4", sourceSessionId: "c172889a-aa67-452b-b5c9-81f1e500de7d" } as const;
const SHOTS = "e2e/.tmp/screenshots";

async function era2Ref(request: APIRequestContext): Promise<string> {
  const response = await request.post("/api/tools/list_sessions", { data: { project_key: ERA2.projectKey, q: ERA2.sourceSessionId } });
  const body = (await response.json()) as ListSessionsResult;
  expect(body.sessions).toHaveLength(1);
  return body.sessions[0]!.session_ref;
}

test.describe("session forensics on a real corpus session", () => {
  test.skip(!HAS_CORPUS, NO_CORPUS_REASON);

  test("the overview's about line sits on top of the session page", async ({ page, request, viewerPage }) => {
    const ref = await era2Ref(request);
    await page.goto(`/projects/${ERA2.projectKey}/sessions/${ref}`);
    await viewerPage.waitForLoaded();
    const about = page.getByTestId("session-about");
    await expect(about).toContainText('User asked: "');
    await expect(about).toContainText("4 subagent transcripts are attached");
    await expect(page.getByRole("navigation", { name: "Session views" }).getByRole("link", { name: "Transcript" })).toHaveAttribute("aria-current", "page");
    await page.screenshot({ path: `${SHOTS}/forensics-session.png` });
    await about.click();
    await expect(page.getByTestId("session-overview")).toHaveAttribute("open", "");
    await expect(page.getByTestId("session-overview")).toContainText("Cache read");
    await page.screenshot({ path: `${SHOTS}/forensics-overview-open.png` });
  });

  test("the timeline shows subagent rows between main rows in time order; a row opens the viewer line and Back returns", async ({ page, request, viewerPage }) => {
    const ref = await era2Ref(request);
    const response = await request.post("/api/tools/reconstruct_session", { data: { project_key: ERA2.projectKey, session_ref: ref, limit: 5000, max_bytes: 10_000_000 } });
    const { timeline } = (await response.json()) as ReconstructSessionResult;
    // A subagent row with a timestamped main row just before it and a main row after it.
    const i = timeline.findIndex((r, k) => k > 0 && r.source === "subagent" && timeline[k - 1]!.source === "main" && timeline[k - 1]!.timestamp !== null && timeline.slice(k).some((x) => x.source === "main"));
    expect(i).toBeGreaterThan(0);
    const j = timeline.findIndex((r, k) => k > i && r.source === "main");

    await page.goto(`/projects/${ERA2.projectKey}/sessions/${ref}/timeline?row=${i}`);
    const row = (index: number) => page.locator(`[role="listitem"][data-index="${index}"]`);
    await expect(row(i)).toHaveAttribute("data-source", "subagent");
    await expect(row(i)).toHaveAttribute("aria-current", "true");
    await expect(row(i - 1)).toHaveAttribute("data-source", "main");
    if (j - i < 15) await expect(row(j)).toHaveAttribute("data-source", "main");
    // Rendered times never go backwards.
    const times = (await page.locator('[role="listitem"] span[title$="Z"]').allTextContents()).filter((t) => t !== "—");
    expect([...times].sort()).toEqual(times);
    await expect(page.getByTestId("timeline-count")).toContainText(`${timeline.length} events`);
    await page.screenshot({ path: `${SHOTS}/forensics-timeline.png` });

    const main = timeline[i - 1]!;
    await row(i - 1).getByRole("link", { name: `L${main.line}` }).click();
    await expect(page).toHaveURL(new RegExp(`/sessions/${ref}#L${main.line}$`));
    await viewerPage.waitForLoaded(main.line);
    await expect(viewerPage.row(main.line)).toHaveAttribute("data-highlighted", "true");

    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`/timeline\\?row=${i - 1}$`));
    await expect(row(i - 1)).toHaveAttribute("aria-current", "true");

    // Filters are part of the URL: only subagent rows.
    await page.getByLabel("Source").selectOption("subagent");
    await expect(page).toHaveURL(/source=subagent/);
    await expect(row(0)).toHaveAttribute("data-source", "subagent");
    await expect(page.locator('[role="listitem"][data-source="main"]')).toHaveCount(0);
  });

  test("a timeline row shows the agent's Markdown text as plain text (issue 29)", async ({ page, request }) => {
    const ref = await era2Ref(request);
    const response = await request.post("/api/tools/reconstruct_session", { data: { project_key: ERA2.projectKey, session_ref: ref, limit: 5000, max_bytes: 10_000_000, include_headlines: true } });
    const { timeline } = (await response.json()) as ReconstructSessionResult;
    // The agent wrote `My Workscope ID is: **20260112-204511**` (line 11 of the transcript).
    const k = timeline.findIndex((r) => typeof r.payload.headline === "string" && r.payload.headline.startsWith("My Workscope ID is:"));
    expect(k).toBeGreaterThanOrEqual(0);
    await page.goto(`/projects/${ERA2.projectKey}/sessions/${ref}/timeline?row=${k}`);
    const headline = page.locator(`[role="listitem"][data-index="${k}"]`).getByTestId("timeline-headline");
    await expect(headline).toHaveText(/^My Workscope ID is: 20260112-204511 Now let me initialize/);
    await expect(headline).not.toContainText("**");
  });

  test("the session's audit ledger entries join the timeline as audit rows that open the Audit page", async ({ page, request }) => {
    const ref = await era2Ref(request);
    const read = await request.post("/api/tools/read_session_lines", { data: { project_key: ERA2.projectKey, session_ref: ref, start_line: 1, end_line: 2 } });
    expect(read.ok()).toBe(true);
    const response = await request.post("/api/tools/reconstruct_session", { data: { project_key: ERA2.projectKey, session_ref: ref, source: "audit", limit: 5000, max_bytes: 10_000_000 } });
    const { timeline } = (await response.json()) as ReconstructSessionResult;
    const mine = timeline.filter((r) => r.payload.tool_name === "read_session_lines" && r.actor === "http");
    expect(mine.map((r) => r.event_type).slice(-2)).toEqual(["tool_call_started", "tool_call_finished"]);

    await page.goto(`/projects/${ERA2.projectKey}/sessions/${ref}/timeline?source=audit`);
    await expect(page.getByTestId("timeline-count")).toContainText(`${timeline.length} events`);
    const last = page.locator(`[role="listitem"][data-index="${mine.at(-1)!.index}"]`);
    await last.scrollIntoViewIfNeeded();
    await expect(last).toHaveAttribute("data-source", "audit");
    await expect(last).toContainText("read_session_lines finished: success");
    await page.screenshot({ path: `${SHOTS}/forensics-timeline-audit.png` });
    await last.getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/audit\\?task=${encodeURIComponent(`${ERA2.projectKey}/${ref}`)}$`));
  });

  test("find in session finds the lines search_sessions finds in the session, and n moves to the next match", async ({ page, request, viewerPage }) => {
    const ref = await era2Ref(request);
    // Lines that call or answer Read: the same query language and matcher as the global search (issue 37).
    const pattern = "tool:Read";
    const search = async () => (await (await request.post("/api/tools/search_sessions", { data: { query: pattern, project_key: ERA2.projectKey, session_ref: ref, limit: 200 } })).json()) as SearchSessionsResult;
    // Right after start the index may still be filling in the background (status "indexing").
    await expect.poll(async () => (await search()).status, { timeout: 60_000 }).toBe("ok");
    const found = await search();
    const lines = found.hits.filter((h) => h.file.kind === "main").map((h) => h.line_number).sort((a, b) => a - b);
    expect(lines.length).toBeGreaterThan(2);

    await page.goto(`/projects/${ERA2.projectKey}/sessions/${ref}`);
    await viewerPage.waitForLoaded();
    await viewerPage.focusTranscript();
    await page.keyboard.press("/");
    const box = page.getByRole("searchbox", { name: "Search this transcript" });
    await expect(box).toBeFocused();
    await box.fill(pattern);
    await box.press("Enter");
    await expect(page.getByTestId("search-status")).toContainText(`1 / ${lines.length}`);
    await expect(page).toHaveURL(new RegExp(`#L${lines[0]}$`));
    await expect(viewerPage.row(lines[0]!)).toHaveAttribute("data-highlighted", "true");

    // Leave the box (Esc would clear the query and its matches, issue 29): n/N step through them.
    await viewerPage.focusTranscript();
    await page.keyboard.press("n");
    await expect(page.getByTestId("search-status")).toContainText(`2 / ${lines.length}`);
    await expect(page).toHaveURL(new RegExp(`#L${lines[1]}$`));
    await expect(viewerPage.row(lines[1]!)).toHaveAttribute("data-highlighted", "true");
    await expect(viewerPage.row(lines[1]!)).toBeInViewport();
    await page.keyboard.press("N");
    await expect(page).toHaveURL(new RegExp(`#L${lines[0]}$`));
  });

  test("the project-wide search lists file:line matches that open the viewer at the line", async ({ page, viewerPage }) => {
    await page.goto(`/projects/${ERA2.projectKey}/search`);
    await page.getByRole("searchbox", { name: "Search every session of the project" }).fill("wsd:init");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByTestId("search-summary")).toContainText("matching line");
    await page.screenshot({ path: `${SHOTS}/forensics-search.png` });
    const first = page.getByTestId("hit-link").first();
    const label = (await first.textContent())!;
    const line = Number(/L(\d+)$/.exec(label)![1]);
    await first.click();
    await expect(page).toHaveURL(new RegExp(`#L${line}$`));
    await viewerPage.waitForLoaded(line);
    await expect(viewerPage.row(line)).toHaveAttribute("data-highlighted", "true");
  });
});
