import type { APIRequestContext } from "@playwright/test";

import type { SearchSessionsResult } from "../lib/catalog/schema";
import { findWorkspaceSession } from "./evidence-workspace";
import { MANY_PROJECT_LABEL } from "./fixtures/make-edge-cases";
import { READER_SESSION_ID } from "./fixtures/make-reader-case";
import { expect, test } from "./fixtures";
import { ProjectPage } from "./pages/project-page";
import { SearchPage } from "./pages/search-page";
import { ViewerPage } from "./pages/viewer-page";
import { HAS_CORPUS, LONG_SESSION, NO_CORPUS_REASON } from "./paths";

/** A phrase of LONG_SESSION's line 29 (a tool result listing git commits). */
const PHRASE = { text: "auto-cleanup review tmux sessions", line: 29 } as const;

/** search_sessions' hits of `query` in one session, as the server answers them. */
async function sessionHits(request: APIRequestContext, query: string, projectKey: string, sessionRef: string) {
  const response = await request.post("/api/tools/search_sessions", { data: { query, project_key: projectKey, session_ref: sessionRef, limit: 200 } });
  expect(response.ok()).toBeTruthy();
  return (await response.json()) as SearchSessionsResult;
}

/** Waits out the background fill right after start: the page says so and updates when done (a reload covers a fill that ended before the page listened). */
async function waitForIndex(search: SearchPage) {
  await expect(async () => {
    if ((await search.indexingNote().count()) > 0) await search.page.reload();
    await expect(search.indexingNote()).toHaveCount(0, { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
}

test.describe("search across every session (issues 25, 37)", () => {
  test("the header's search box finds a corpus phrase and a hit opens the viewer at its line, the phrase marked", async ({ homePage, page }) => {
    test.skip(!HAS_CORPUS, NO_CORPUS_REASON);
    const search = new SearchPage(page);
    await homePage.goto();
    await search.searchFromHeader(`"${PHRASE.text}"`);
    await waitForIndex(search);
    await expect(search.results()).toBeVisible();
    await expect(search.highlights().first()).toHaveText(new RegExp(PHRASE.text, "i"));
    const group = search.groups().filter({ hasText: new RegExp(`${LONG_SESSION.projectLabel}-[0-9a-f]+ · S\\d+`) }).first();
    await expect(group).toContainText(/\d+ matching lines?/);
    const hit = group.getByTestId("search-hit").filter({ hasText: new RegExp(`^line ${PHRASE.line}$`) });
    await expect(hit).toBeVisible();
    await hit.click();
    await page.waitForURL(new RegExp(`/sessions/S\\d+\\?q=[^#]+#L${PHRASE.line}$`));
    const viewer = new ViewerPage(page);
    await expect(viewer.row(PHRASE.line)).toBeInViewport();
    await expect(viewer.row(PHRASE.line).locator("mark").first()).toHaveText(new RegExp(PHRASE.text, "i"));
    await expect(viewer.row(PHRASE.line).locator("mark").first()).toBeVisible();
    await expect(viewer.searchBox()).toHaveValue(`"${PHRASE.text}"`);
  });

  test("hits come grouped by session; a hit opens the viewer at its line with the match marked, and find in session steps through the same lines", async ({ page, request }) => {
    const session = findWorkspaceSession(READER_SESSION_ID);
    const search = new SearchPage(page);
    await page.goto(`/search?q=overloaded&project_key=${encodeURIComponent(session.projectKey)}`);
    await waitForIndex(search);
    const api = await sessionHits(request, "overloaded", session.projectKey, session.sessionRef);
    const lines = api.hits.filter((h) => h.file.kind === "main").map((h) => h.line_number).sort((a, b) => a - b);
    expect(lines.length).toBeGreaterThan(2);
    await expect(search.summary()).toHaveText(/^\d+ sessions?, \d+ lines?; showing lines 1–\d+\.$/);
    const group = search.group(session.projectKey, session.sessionRef);
    await expect(group).toContainText(`${api.total} matching lines`);
    await expect(group.locator("mark").first()).toHaveText(/overloaded/i);

    const first = group.getByTestId("search-hit").first();
    const line = Number((await first.textContent())!.replace(/^line /, ""));
    await first.click();
    await page.waitForURL(new RegExp(`\\?q=overloaded#L${line}$`));
    const viewer = new ViewerPage(page);
    await expect(viewer.row(line)).toBeInViewport();
    await expect(viewer.row(line).locator("mark").first()).toHaveText(/overloaded/i);
    await expect(viewer.row(line).locator("mark").first()).toBeVisible();
    // Find in session: the same lines as the global search, in line order, starting at the linked one.
    const at = lines.indexOf(line);
    await expect(viewer.searchStatus()).toHaveText(`${at + 1} / ${lines.length} · n/N`);
    await viewer.focusTranscript();
    await page.keyboard.press("n");
    const next = lines[(at + 1) % lines.length]!;
    await expect(page).toHaveURL(new RegExp(`#L${next}$`));
    await expect(viewer.searchStatus()).toHaveText(`${((at + 1) % lines.length) + 1} / ${lines.length} · n/N`);
    await expect(viewer.row(next).locator("mark").first()).toHaveText(/overloaded/i);
  });

  test("a malformed or too short query gets the parser's message and hint, and filters narrow the hits", async ({ page }) => {
    const search = new SearchPage(page);
    await page.goto("/search?q=ab");
    const alert = page.getByRole("alert").filter({ hasText: "query:" });
    await expect(alert).toContainText("query: at character 1: a search needs a word of at least 3 characters or a filter");
    await page.goto(`/search?q=${encodeURIComponent('timeout "open')}`);
    await expect(alert).toContainText("query: at character 9: an unclosed quote");
    await page.goto("/search?q=message&source=codex&tool=no-such-tool");
    await expect(search.summary()).toHaveText("No matches.");
    await expect(search.hitLinks()).toHaveCount(0);
    await page.getByText("Query syntax").click();
    await expect(page.getByText("is:error", { exact: true })).toBeVisible();
  });
});

test("at 480 and 1440 px every field of the search page shows its whole placeholder or value, on screen", async ({ page }) => {
  const search = new SearchPage(page);
  for (const width of [480, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/search");
    await expect(search.form().getByLabel("File touched")).toBeVisible();
    expect(await search.unreadableFields(), `search form at ${width} px`).toEqual([]);
    expect(await search.unreadableFields(page.getByRole("banner")), `header at ${width} px`).toEqual([]);
    // Filled in from the URL, the longest choices still fit.
    await page.goto("/search?q=overloaded&has_error=false&source=claude-code");
    await expect(search.form().getByLabel("Tool errors")).toHaveValue("false");
    expect(await search.unreadableFields(), `search form with filters at ${width} px`).toEqual([]);
    // The page never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  }
});

test("a project page with 100+ sessions renders its first rows from the server's HTML", async ({ browser, homePage }) => {
  await homePage.goto();
  const href = await homePage.projectLink(MANY_PROJECT_LABEL).getAttribute("href");
  // No scripts: whatever rows show came with the HTML.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(href!);
  const project = new ProjectPage(page);
  await expect(project.table()).toBeVisible();
  await expect(project.dataRows().first()).toBeVisible();
  expect(await project.dataRows().count()).toBeGreaterThan(10);
  await context.close();
});
