import type { APIRequestContext } from "@playwright/test";

import { expect, test } from "./fixtures";
import { AGENT_SESSIONS, AGENTS_HOME, HAS_AGENTS_HOME } from "./paths";

/** One session of each agent behind the source contract (issue 38), as prepared by global-setup from agents-home. */
test.describe("other agents' sessions (issue 38)", () => {
  test.skip(!HAS_AGENTS_HOME, `needs the shared agents-home corpus at ${AGENTS_HOME}`);

  /** Aider's project key is made from its folder's path (where the corpus is checked out): found by label. */
  async function aiderProject(request: APIRequestContext): Promise<string> {
    const projects = (await (await request.post("/api/tools/list_projects", { data: {} })).json()) as { projects: { project_key: string; project_label: string }[] };
    return projects.projects.find((p) => p.project_label === "myrepo")!.project_key;
  }

  const cases = [
    { source: "gemini-cli", label: "Gemini CLI", line: 4, text: "Error: [API Error: Requested entity was not found.]" },
    { source: "copilot-cli", label: "Copilot CLI", line: 1, text: "Session started: Copilot CLI 1.0.65" },
    { source: "opencode", label: "OpenCode", line: 6, text: "Write /Users/cam/tmp/a/test.txt" },
    { source: "aider", label: "Aider", line: 3, text: "User: add a retry to the webhook" },
  ] as const;

  for (const c of cases) {
    test(`${c.label}: the session table, the viewer, the Timeline`, async ({ page, request, viewerPage }) => {
      const projectKey = c.source === "aider" ? await aiderProject(request) : AGENT_SESSIONS[c.source].projectKey;
      await page.goto(`/projects/${projectKey}?source=${c.source}`);
      const table = page.getByRole("region", { name: "Sessions" }).or(page.getByRole("table")).first();
      await expect(table).toContainText(c.label);
      await expect(page.getByLabel("Source")).toHaveValue(c.source);

      await page.goto(`/projects/${projectKey}/sessions/S0001#L${c.line}`);
      await viewerPage.waitForLoaded(c.line);
      await expect(viewerPage.row(c.line)).toContainText(c.text);
      await expect(page.getByRole("navigation", { name: "Turns" }).getByRole("button", { name: /T0001/ })).toBeVisible();
      await viewerPage.expectRowBudget();
      // Aider has no subagents at all: the sidebar says so rather than counting none.
      if (c.source === "aider") await expect(page.getByText("This agent records no subagents.")).toBeVisible();
      await page.screenshot({ path: `e2e/.tmp/screenshots/agent-${c.source}-viewer.png` });

      await page.goto(`/projects/${projectKey}/sessions/S0001/timeline`);
      await expect(page.getByTestId("timeline-headline").first()).toBeVisible();
      await expect(page.getByTestId("timeline-count")).toContainText(/\d/);
      if (c.source === "aider") await expect(page.getByTestId("timeline-time-note")).toContainText("Times are the run's start");
      await page.screenshot({ path: `e2e/.tmp/screenshots/agent-${c.source}-timeline.png` });
    });
  }

  test("usage is counted by source: the Usage page's source table equals get_usage", async ({ page, request }) => {
    const bySource = (await (await request.post("/api/tools/get_usage", { data: { group_by: "source" } })).json()) as { rows: { key: string; total_tokens: number }[] };
    const gemini = bySource.rows.find((r) => r.key === "gemini-cli")!;
    expect(gemini.total_tokens).toBeGreaterThan(0);
    await page.goto("/usage?table=source");
    const row = page.locator('[data-testid="usage-row"][data-key="gemini-cli"]');
    await expect(row).toHaveAttribute("data-total-tokens", String(gemini.total_tokens));
    await page.goto("/usage?source=gemini-cli&table=session");
    await expect(page.getByTestId("usage-row").first()).toBeVisible();
    await page.screenshot({ path: "e2e/.tmp/screenshots/agent-usage.png", fullPage: true });
  });
});
