import { expect, test } from "./fixtures";
import type { HomePage } from "./pages/home-page";
import type { ProjectPage } from "./pages/project-page";
import { HAS_CORPUS, NO_CORPUS_REASON, PHANTOM_BAD_SESSION as BAD } from "./paths";

test.describe("seed 003 analysis on the phantom-reads corpus", () => {
  test.skip(!HAS_CORPUS, NO_CORPUS_REASON);

  /** Opens the 2.0.58-bad session's viewer from the project table; returns its viewer URL path. */
  async function openBadSession({ homePage, projectPage }: { homePage: HomePage; projectPage: ProjectPage }) {
    await homePage.goto();
    await homePage.openProject(BAD.projectLabel);
    await projectPage.filter().fill(BAD.sourceSessionId);
    await projectPage.expectTotalRows(1);
    await projectPage.openSession();
    return new URL(projectPage.page.url()).pathname;
  }

  test("the chart renders with the reset markers; clicking one opens the viewer at the reset's line", async ({ homePage, projectPage, analysisPage, viewerPage, page }) => {
    const viewer = await openBadSession({ homePage, projectPage });
    await page.goto(`${viewer}/analysis`);
    await expect(analysisPage.chart().locator("canvas").first()).toBeVisible();
    await expect(analysisPage.resetMarkers()).toHaveCount(BAD.resetLines.length);
    // Hovering the chart shows the figures of the nearest point (hovered again if the overview banner
    // streamed in above the chart and moved it from under the pointer).
    await expect(async () => {
      await analysisPage.chart().locator(".u-over").hover();
      await expect(analysisPage.chart().getByTestId("token-tooltip")).toContainText(/Line \d+[\s\S]*Cache read/, { timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await expect(analysisPage.resetsTable().getByRole("row")).toHaveCount(BAD.resetLines.length + 1);
    await expect(analysisPage.readsTable()).toBeVisible();
    await expect(page.getByText(/high risk/i).first()).toBeVisible();
    await page.screenshot({ path: "e2e/.tmp/analysis-page.png", fullPage: true });

    await analysisPage.resetMarker(57).click();
    await page.waitForURL((url) => url.pathname === viewer && url.hash === "#L57");
    await expect(viewerPage.row(57)).toBeInViewport();
  });

  test("the risk filter narrows the session table", async ({ homePage, projectPage, page }) => {
    await homePage.goto();
    await homePage.openProject(BAD.projectLabel);
    await expect(page.getByTestId("project-risk")).toContainText(/sessions at high risk/);
    await expect.poll(() => projectPage.totalRows()).toBeGreaterThan(1);
    const all = await projectPage.totalRows();
    await page.getByLabel("Risk").selectOption("high");
    await expect.poll(() => projectPage.totalRows()).toBeLessThan(all);
    const high = await projectPage.totalRows();
    expect(high).toBeGreaterThan(0);
    await expect(projectPage.dataRows().locator('[data-risk="low"]')).toHaveCount(0);
    await expect(projectPage.dataRows().locator('[data-risk="high"]')).toHaveCount(high);
    await page.getByLabel("Risk").selectOption("low");
    await expect.poll(() => projectPage.totalRows()).toBe(all - high);
  });

  test("the paired chat export shows beside the transcript, tool lines linked to it", async ({ homePage, projectPage, analysisPage, viewerPage, page }) => {
    const viewer = await openBadSession({ homePage, projectPage });
    await page.goto(`${viewer}/export`);
    await expect(analysisPage.exportPane()).toContainText(`Workscope ID: ${BAD.workscopeId}`);
    await viewerPage.waitForLoaded();
    const link = analysisPage.exportPane().getByRole("button", { name: /^L\d+$/ }).nth(3);
    const line = Number((await link.textContent())!.slice(1));
    await link.click();
    await expect(viewerPage.row(line)).toBeInViewport();
    await page.screenshot({ path: "e2e/.tmp/export-page.png" });
  });
});
