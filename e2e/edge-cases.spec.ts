import { EDGE_LINES, EDGE_PROJECT_LABEL, MARKERS } from "./fixtures/make-edge-cases";
import { expect, test } from "./fixtures";

test.describe("edge-case transcript", () => {
  test.beforeEach(async ({ homePage, projectPage, viewerPage }) => {
    await homePage.goto();
    await homePage.openProject(EDGE_PROJECT_LABEL);
    await projectPage.openSession();
    await viewerPage.waitForLoaded();
  });

  test("compact mode shows each odd line as what it is, and the lines after them", async ({ viewerPage, page }) => {
    const row = (n: number) => viewerPage.row(n);
    await expect(row(1)).toContainText("Edge-case session");

    await expect(row(EDGE_LINES.malformed)).toContainText("malformed");
    await expect(row(EDGE_LINES.afterMalformed)).toContainText(MARKERS.afterMalformed);

    await expect(row(EDGE_LINES.invalidUtf8)).toContainText("invalid UTF-8");
    await expect(row(EDGE_LINES.invalidUtf8)).toContainText("\uFFFD");
    await expect(row(EDGE_LINES.afterInvalidUtf8)).toContainText(MARKERS.afterInvalidUtf8);

    await expect(row(EDGE_LINES.huge)).toContainText("50.0 MB");
    await expect(row(EDGE_LINES.huge)).toContainText("truncated");
    await expect(row(EDGE_LINES.huge)).toContainText("HEAD-OF-BIG-OUTPUT");
    await expect(row(EDGE_LINES.afterHuge)).toContainText(MARKERS.afterHuge);

    await expect(row(EDGE_LINES.truncatedLast)).toContainText("malformed");
    await expect(row(EDGE_LINES.truncatedLast)).toContainText("incomplete last line");
    await expect(page.getByText(`End of file · ${EDGE_LINES.truncatedLast} lines`)).toBeVisible();

    // The 50 MB line never reaches the DOM whole.
    expect(await page.evaluate(() => document.body.innerHTML.length)).toBeLessThan(2_000_000);
    await viewerPage.expectRowBudget();
  });

  test("full mode flags malformed, clipped and invalid UTF-8 lines", async ({ viewerPage, page }) => {
    await viewerPage.modeButton("Full").click();
    const row = (n: number) => viewerPage.row(n);
    await expect(row(EDGE_LINES.malformed)).toContainText("malformed");
    await expect(row(EDGE_LINES.malformed)).toContainText("this is not JSON at all");
    await expect(row(EDGE_LINES.invalidUtf8)).toContainText("invalid UTF-8");
    await expect(row(EDGE_LINES.huge)).toContainText("clipped");
    await expect(row(EDGE_LINES.huge)).toContainText("50.0 MB");
    await expect(row(EDGE_LINES.afterHuge)).toContainText(MARKERS.afterHuge);
    await expect(row(EDGE_LINES.truncatedLast)).toContainText("malformed");

    // A malformed line expands to its raw text, not to a JSON error.
    await row(EDGE_LINES.malformed).getByRole("button", { name: `Expand line ${EDGE_LINES.malformed}` }).click();
    await expect(row(EDGE_LINES.malformed)).toContainText("Not valid JSON");

    // The clipped 50 MB line expands to at most the display cap.
    await row(EDGE_LINES.huge).getByRole("button", { name: `Expand line ${EDGE_LINES.huge}` }).click();
    await expect(row(EDGE_LINES.huge)).toContainText("Line clipped by the server");
    expect(await page.evaluate(() => document.body.innerHTML.length)).toBeLessThan(2_000_000);
    await viewerPage.expectRowBudget();
  });
});
