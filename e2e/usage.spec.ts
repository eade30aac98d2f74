import type { GetUsageResult } from "../lib/usage/schema";
import { expect, test } from "./fixtures";
import { HAS_CORPUS, NO_CORPUS_REASON } from "./paths";

/** The 2.1.39 corpus session with a subagent and a compaction agent: the most tokens of the corpus. */
const SPOTTER = { projectKey: "spotter-gqc-f2b23ef1c061", sessionId: "258c7280-ae70-4798-800f-63464d01a85d" } as const;

test.describe("usage (issue 28)", () => {
  test.skip(!HAS_CORPUS, NO_CORPUS_REASON);

  test("the Usage page's chart and table totals equal get_usage", async ({ page, request }) => {
    const byDay = (await (await request.post("/api/tools/get_usage", { data: { group_by: "day" } })).json()) as GetUsageResult;
    const bySession = (await (await request.post("/api/tools/get_usage", { data: { group_by: "session" } })).json()) as GetUsageResult;
    expect(byDay.totals.total_tokens).toBeGreaterThan(0);
    expect(bySession.totals.total_tokens).toBe(byDay.totals.total_tokens);

    await page.goto("/");
    await page.getByRole("banner").getByRole("link", { name: "Usage" }).click();
    await expect(page).toHaveURL(/\/usage$/);
    const chart = page.getByTestId("usage-chart");
    await expect(chart).toBeVisible();
    await expect(chart.locator(".recharts-bar-rectangle").first()).toBeVisible();
    await expect(chart).toHaveAttribute("data-total-tokens", String(byDay.totals.total_tokens));
    await expect(chart).toHaveAttribute("data-bars", String(byDay.rows.length));
    const table = page.getByTestId("usage-table");
    await expect(table.getByTestId("usage-row")).toHaveCount(bySession.rows.length);
    await expect(table.getByTestId("usage-total")).toHaveAttribute("data-total-tokens", String(bySession.totals.total_tokens));
    await expect(table.getByTestId("usage-total")).toHaveAttribute("data-cost-usd", String(bySession.totals.cost_usd));
    const rowSum = (await table.getByTestId("usage-row").evaluateAll((rows) => rows.map((r) => Number(r.getAttribute("data-total-tokens"))))).reduce((a, b) => a + b, 0);
    expect(rowSum).toBe(bySession.totals.total_tokens);
    await page.screenshot({ path: "e2e/.tmp/screenshots/usage-page.png", fullPage: true });
  });

  test("the session header's tokens equal that session's Usage row", async ({ page, request, viewerPage }) => {
    const bySession = (await (await request.post("/api/tools/get_usage", { data: { group_by: "session", project_key: SPOTTER.projectKey } })).json()) as GetUsageResult;
    const row = bySession.rows.find((r) => r.session_id === SPOTTER.sessionId)!;
    expect(row).toBeDefined();

    await page.goto(`/usage?project=${SPOTTER.projectKey}`);
    const tableRow = page.locator(`[data-testid="usage-row"][data-session-id="${SPOTTER.sessionId}"]`);
    await expect(tableRow).toHaveAttribute("data-total-tokens", String(row.total_tokens));
    await tableRow.getByRole("link").click();
    await viewerPage.waitForLoaded();
    const header = page.getByTestId("session-usage");
    await expect(header).toHaveAttribute("data-total-tokens", String(row.total_tokens));
    await expect(header).toHaveAttribute("data-cost-usd", String(row.cost_usd));
    await expect(header).toContainText(new Intl.NumberFormat("en-US").format(row.total_tokens));
  });

  test("the home page shows the last 30 days and the project page its usage, as get_usage counts them", async ({ page, request }) => {
    const project = (await (await request.post("/api/tools/get_usage", { data: { group_by: "project", project_key: SPOTTER.projectKey } })).json()) as GetUsageResult;
    await page.goto(`/projects/${SPOTTER.projectKey}`);
    await expect(page.getByTestId("usage-summary")).toHaveAttribute("data-total-tokens", String(project.totals.total_tokens));
    await page.goto("/");
    await expect(page.getByTestId("usage-summary")).toContainText("Last 30 days");
  });
});
