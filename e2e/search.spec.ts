import { MANY_PROJECT_LABEL } from "./fixtures/make-edge-cases";
import { expect, test } from "./fixtures";
import { ProjectPage } from "./pages/project-page";
import { SearchPage } from "./pages/search-page";
import { ViewerPage } from "./pages/viewer-page";
import { HAS_CORPUS, LONG_SESSION, NO_CORPUS_REASON } from "./paths";

/** A phrase of LONG_SESSION's line 29 (a tool result listing git commits). */
const PHRASE = { text: "auto-cleanup review tmux sessions", line: 29 } as const;

test.describe("search across every session (issue 25)", () => {
  test("the header's search box finds a corpus phrase and a hit opens the viewer at its line", async ({ homePage, page }) => {
    test.skip(!HAS_CORPUS, NO_CORPUS_REASON);
    const search = new SearchPage(page);
    await homePage.goto();
    await search.searchFromHeader(PHRASE.text);
    // Right after start the server may still be filling the index in the background: the page says
    // so and updates when it is done (a reload covers a fill that ended before the page listened).
    await expect(async () => {
      if ((await search.indexingNote().count()) > 0) await page.reload();
      await expect(search.indexingNote()).toHaveCount(0, { timeout: 2_000 });
    }).toPass({ timeout: 60_000 });
    await expect(search.results()).toBeVisible();
    await expect(search.highlights().first()).toHaveText(new RegExp(PHRASE.text, "i"));
    const hit = search.hitLinks().filter({ hasText: new RegExp(`^${LONG_SESSION.projectLabel}-[0-9a-f]+ · S\\d+(?: · T\\d+)? · line ${PHRASE.line}$`) }).first();
    await expect(hit).toBeVisible();
    await hit.click();
    await page.waitForURL(new RegExp(`/sessions/S\\d+#L${PHRASE.line}$`));
    const viewer = new ViewerPage(page);
    await expect(viewer.row(PHRASE.line)).toBeInViewport();
  });

  test("a query too short gets a clear message, and filters narrow the hits", async ({ page }) => {
    const search = new SearchPage(page);
    await page.goto("/search?q=ab");
    await expect(page.getByRole("alert").filter({ hasText: "query: query must be at least 3 characters" })).toBeVisible();
    await page.goto("/search?q=message&source=codex&tool=no-such-tool");
    await expect(page.getByText("No matches.")).toBeVisible();
    await expect(search.results().getByRole("listitem")).toHaveCount(0);
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
