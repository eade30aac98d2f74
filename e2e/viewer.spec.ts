import { expect, test } from "./fixtures";
import { HAS_CORPUS, LONG_SESSION, NO_CORPUS_REASON } from "./paths";

test.describe("viewer on a long corpus session", () => {
  test.skip(!HAS_CORPUS, NO_CORPUS_REASON);

  test.beforeEach(async ({ homePage, projectPage, viewerPage }) => {
    await homePage.goto();
    await homePage.openProject(LONG_SESSION.projectLabel);
    await projectPage.filter().fill(LONG_SESSION.sourceSessionId);
    await projectPage.expectTotalRows(1);
    await projectPage.openSession();
    await viewerPage.waitForLoaded();
  });

  test("scrolls to the last line with a bounded DOM", async ({ viewerPage, request }) => {
    const lineCount = await viewerPage.lineCountFromApi(request);
    expect(lineCount).toBeGreaterThanOrEqual(500);
    await viewerPage.expectRowBudget();

    // Mouse-wheel scrolling through the middle, then to the end.
    await viewerPage.scroller().hover();
    for (let i = 0; i < 5; i++) {
      await viewerPage.page.mouse.wheel(0, 4_000);
      await viewerPage.expectRowBudget();
    }
    await viewerPage.scrollToEnd(lineCount);
    await expect(viewerPage.row(lineCount)).toContainText(String(lineCount));
    await expect(viewerPage.page.getByText(/End of file/)).toBeVisible();
    await viewerPage.expectRowBudget();
  });

  test("toggles compact and full with buttons and the f key", async ({ viewerPage }) => {
    await expect(viewerPage.modeButton("Compact")).toHaveAttribute("aria-pressed", "true");
    await viewerPage.modeButton("Full").click();
    await expect(viewerPage.modeButton("Full")).toHaveAttribute("aria-pressed", "true");
    await expect(viewerPage.row(1)).toContainText('{"');
    await viewerPage.expectRowBudget();

    await viewerPage.row(1).getByRole("button", { name: "Expand line 1" }).click();
    await expect(viewerPage.row(1).locator("pre")).toContainText('"type"');
    await viewerPage.expectRowBudget();

    await viewerPage.focusTranscript();
    await viewerPage.page.keyboard.press("f");
    await expect(viewerPage.modeButton("Compact")).toHaveAttribute("aria-pressed", "true");
    await viewerPage.waitForLoaded();
    await viewerPage.expectRowBudget();
  });

  test("a jump near the end stays on its line when that part of the session arrives late", async ({ page, viewerPage, request }) => {
    const lineCount = await viewerPage.lineCountFromApi(request);
    const target = lineCount - 23;
    // A cold first visit: the line windows past the first arrive 1.5 s after the jump. Their rows
    // then grow from placeholders all at once; the viewer must not slide to the session's end.
    await page.route(/\/lines\?/, async (route) => {
      if (Number(new URL(route.request().url()).searchParams.get("start")) > 1) await new Promise((r) => setTimeout(r, 1_500));
      await route.continue();
    });
    await viewerPage.jumpInput().fill(String(target));
    await viewerPage.jumpInput().press("Enter");
    await viewerPage.row(target).getByRole("link", { name: String(target), exact: true }).click();
    await viewerPage.waitForLoaded(target);
    await expect(viewerPage.row(target)).toBeInViewport();
    await viewerPage.expectRowBudget();
  });

  test("follows a #L40-L45 deep link and line-number clicks", async ({ viewerPage, page }) => {
    await page.goto(`${page.url().split("#")[0]}#L40-L45`);
    for (let line = 40; line <= 45; line++) await expect(viewerPage.row(line)).toHaveAttribute("data-highlighted", "true");
    // The range's start is on screen (its rows may be taller than the screen: diffs, Markdown).
    await expect(viewerPage.row(40)).toBeInViewport();
    await expect(viewerPage.row(46)).not.toHaveAttribute("data-highlighted", "true");
    await viewerPage.expectRowBudget();

    await viewerPage.row(42).getByRole("link", { name: "42", exact: true }).click();
    await expect(page).toHaveURL(/#L42$/);
    await viewerPage.row(44).getByRole("link", { name: "44", exact: true }).click({ modifiers: ["Shift"] });
    await expect(page).toHaveURL(/#L42-L44$/);
    await expect(viewerPage.row(43)).toHaveAttribute("data-highlighted", "true");
    await expect(viewerPage.row(45)).not.toHaveAttribute("data-highlighted", "true");

    await viewerPage.jumpInput().fill("700");
    await viewerPage.jumpInput().press("Enter");
    await expect(page).toHaveURL(/#L700$/);
    await expect(viewerPage.row(700)).toBeInViewport();
    await viewerPage.expectRowBudget();
  });

  test("j/k move the current line, g/G jump to top and bottom", async ({ viewerPage, request }) => {
    const lineCount = await viewerPage.lineCountFromApi(request);
    const keys = viewerPage.page.keyboard;
    await viewerPage.focusTranscript();

    await keys.press("g");
    await expect(viewerPage.row(1)).toHaveAttribute("data-current", "true");
    for (let i = 0; i < 3; i++) await keys.press("j");
    await expect(viewerPage.row(4)).toHaveAttribute("data-current", "true");
    await keys.press("k");
    await expect(viewerPage.row(3)).toHaveAttribute("data-current", "true");
    await expect(viewerPage.row(4)).not.toHaveAttribute("data-current", "true");
    await viewerPage.expectRowBudget();

    await keys.press("G");
    await expect(viewerPage.row(lineCount)).toBeInViewport({ timeout: 15_000 });
    await expect(viewerPage.row(lineCount)).toHaveAttribute("data-current", "true");
    await viewerPage.expectRowBudget();

    await keys.press("g");
    await expect(viewerPage.row(1)).toBeInViewport({ timeout: 15_000 });
    await viewerPage.expectRowBudget();

    // Typing in an input must not trigger shortcuts.
    await viewerPage.jumpInput().fill("");
    await viewerPage.jumpInput().press("G");
    await expect(viewerPage.row(1)).toBeInViewport();
  });

  test("opens a subagent transcript and comes back", async ({ viewerPage, page }) => {
    await expect(viewerPage.subagentLinks().first()).toBeVisible();
    await viewerPage.subagentLinks().first().click();
    await expect(page).toHaveURL(/[?&]agent=/);
    await expect(viewerPage.mainSessionLink()).toBeVisible();
    await viewerPage.waitForLoaded();
    await viewerPage.expectRowBudget();

    // Back to the main transcript at the line that spawned the subagent (issue 29).
    await viewerPage.mainSessionLink().click();
    await expect(page).not.toHaveURL(/agent=/);
    await expect(page).toHaveURL(/#L\d+$/);
    const spawn = Number(/#L(\d+)$/.exec(page.url())![1]);
    await viewerPage.waitForLoaded(spawn);
    await expect(viewerPage.row(spawn)).toHaveAttribute("data-highlighted", "true");
  });

  test("at 480 px the transcript keeps the width: the turn list and the evidence are rails that open over it", async ({ viewerPage, page }) => {
    await page.setViewportSize({ width: 480, height: 800 });
    // A fresh load at that width: the server's HTML and the first paint already fit it.
    await page.reload();
    await viewerPage.waitForLoaded();
    const transcript = await viewerPage.scroller().boundingBox();
    expect(transcript!.width, "transcript width at 480 px").toBeGreaterThan(380);
    const turns = page.getByRole("navigation", { name: "Turns" });
    const evidence = page.getByRole("list", { name: "Turns and their evidence" });
    await expect(turns).toBeHidden();
    await expect(evidence).toBeHidden();
    // Left alone, the panels follow the screen.
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(turns).toBeVisible();
    await expect(evidence).toBeVisible();
    await page.setViewportSize({ width: 480, height: 800 });
    await expect(turns).toBeHidden();
    await expect(evidence).toBeHidden();

    // The turn list opens over the transcript; a turn scrolls the transcript to it and closes the list.
    const openTurns = page.getByRole("button", { name: "Turns", exact: true });
    await openTurns.click();
    await expect(turns).toBeVisible();
    expect((await viewerPage.scroller().boundingBox())!.width).toBe(transcript!.width);
    const second = turns.getByRole("button").nth(1);
    const start = Number((await second.textContent())!.match(/L(\d+)/)![1]);
    await second.click();
    await expect(turns).toBeHidden();
    await expect(viewerPage.row(start)).toBeInViewport();
    // Escape closes it too; closed so, or by a turn, it is the screen's again: open on a wide one.
    await openTurns.click();
    await turns.getByRole("button").first().focus();
    await page.keyboard.press("Escape");
    await expect(turns).toBeHidden();
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(turns).toBeVisible();
    await page.setViewportSize({ width: 480, height: 800 });
    await expect(turns).toBeHidden();
    await openTurns.click();
    await page.getByRole("button", { name: "› Hide turns" }).click();
    await expect(turns).toBeHidden();

    // So does the evidence panel, within the screen.
    await page.getByRole("button", { name: "Evidence", exact: true }).click();
    await expect(evidence).toBeVisible();
    const panel = await page.getByRole("complementary", { name: "Evidence" }).boundingBox();
    expect(panel!.x).toBeGreaterThanOrEqual(0);
    expect(panel!.x + panel!.width).toBeLessThanOrEqual(480);

    // Once the reader closed them, they stay closed on a wide screen too.
    await page.getByRole("button", { name: "› Hide evidence" }).click();
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(turns).toBeHidden();
    await expect(evidence).toBeHidden();
  });
});
