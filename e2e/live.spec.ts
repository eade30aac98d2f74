import { expect, test } from "./fixtures";
import { findProjectByLabel, resetSynthesis, writeEvidenceWithCli, writeWorkItemWithCli } from "./synthesis-workspace";

// The demo project docs-site (one session, one turn) is this spec's alone. Updates must land before
// the 5 s fallback poll could have fetched them (4.5 s, room for a loaded CI machine): the pages
// refetch on a pushed change (/api/events). The latency itself is the bench's, not this test's.
test.describe("live coverage on the overview and project pages", () => {
  test("home and project pages follow CLI writes without a reload", async ({ page }) => {
    const project = findProjectByLabel("docs-site");
    resetSynthesis(project);

    await page.goto("/");
    await page.evaluate(() => ((window as unknown as { __live: number }).__live = 1));
    const evidence = page.getByRole("meter", { name: "Evidence coverage of docs-site" });
    await expect(evidence).toHaveAttribute("aria-valuetext", "0/1");

    expect(writeEvidenceWithCli(project, "S0001/T0001").status).toBe("appended");
    await expect(evidence).toHaveAttribute("aria-valuetext", "1/1", { timeout: 4_500 });
    expect(await page.evaluate(() => (window as unknown as { __live?: number }).__live)).toBe(1);

    await page.goto(`/projects/${project.projectKey}`);
    await page.evaluate(() => ((window as unknown as { __live: number }).__live = 2));
    const tab = page.getByRole("navigation", { name: "Project views" }).getByRole("link", { name: /Synthesis/ });
    await expect(tab).toContainText("0/1 covered");
    const item = { work_item_ref: "W0001", kind: "excluded_with_reason", title: "Docs rewrite left out", covered_turns: [{ session_ref: "S0001", turn_ref: "T0001" }], reason: "Out of scope for this report.", confidence: "high" };
    expect(writeWorkItemWithCli(project, item).status).toBe("appended");
    await expect(tab).toContainText("1/1 covered", { timeout: 4_500 });
    expect(await page.evaluate(() => (window as unknown as { __live?: number }).__live)).toBe(2);
  });
});
