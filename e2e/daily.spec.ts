import { appendFileSync, writeFileSync } from "node:fs";
import path from "node:path";

import { claudeLines } from "../lib/testing/transcripts";
import { expect, test } from "./fixtures";
import { LIVE_PROJECT, LIVE_SESSION_ID, LIVE_SOURCES_DIR } from "./paths";
import { findProjectByLabel } from "./synthesis-workspace";

// The server watches the workspace's recorded sources (global-setup records LIVE_SOURCES_DIR).
// Generous waits: a loaded CI machine; the watcher itself lands a change in well under a second.
const SYNCED = { timeout: 20_000 };
const SECOND = "11fe0000-0000-4000-8000-000000000002";

test.describe("sessions sync by themselves while the dashboard runs (issue 12, item 1)", () => {
  test("a session written during the test appears in the open table and grows in the open viewer", async ({ page }) => {
    const project = findProjectByLabel(LIVE_PROJECT.label);
    await page.goto(`/projects/${project.projectKey}`);
    await expect(page.getByText("1 session", { exact: true })).toBeVisible();
    await expect(page.getByTestId("project-origin")).toContainText(LIVE_PROJECT.cwd);

    const file = path.join(LIVE_SOURCES_DIR, LIVE_PROJECT.dirName, `${SECOND}.jsonl`);
    writeFileSync(file, claudeLines(SECOND, LIVE_PROJECT.cwd, 2));
    await expect(page.getByText("2 sessions", { exact: true })).toBeVisible(SYNCED);

    await page.goto(`/projects/${project.projectKey}/sessions/S0002`);
    await expect(page.getByText("End of file · 4 lines")).toBeVisible();
    await page.evaluate(() => ((window as unknown as { __live: number }).__live = 1));
    appendFileSync(file, claudeLines(SECOND, LIVE_PROJECT.cwd, 1, 3));
    await expect(page.getByText("End of file · 6 lines")).toBeVisible(SYNCED);
    await expect(page.getByTestId("line-row").and(page.locator('[data-line="6"]'))).toBeVisible();
    // No reload: the page followed the change by itself.
    expect(await page.evaluate(() => (window as unknown as { __live?: number }).__live)).toBe(1);
  });
});

test.describe("a live append (issue 29, item 8)", () => {
  test("the Turns pane and the Evidence pane show the same line span for the new turn as it grows", async ({ page, evidencePanel: ev }) => {
    const project = findProjectByLabel(LIVE_PROJECT.label);
    const file = path.join(LIVE_SOURCES_DIR, LIVE_PROJECT.dirName, `${LIVE_SESSION_ID}.jsonl`);
    await page.goto(`/projects/${project.projectKey}/sessions/S0001`);
    const turnsPane = page.getByRole("navigation", { name: "Turns" });
    const spanIn = {
      turns: (turnRef: string) => turnsPane.getByRole("button").filter({ hasText: turnRef }),
      evidence: (turnRef: string) => ev.turn(turnRef).getByRole("button").first(),
    };
    await expect(spanIn.turns("T0001")).toContainText("L1–2");
    await expect(spanIn.evidence("T0001")).toContainText("L1–2");
    await page.evaluate(() => ((window as unknown as { __live: number }).__live = 1));

    // The agent's next prompt lands first (its turn is one line long), its reply a moment later.
    const [prompt, reply] = claudeLines(LIVE_SESSION_ID, LIVE_PROJECT.cwd, 1, 2).trimEnd().split("\n");
    appendFileSync(file, `${prompt}\n`);
    await expect(spanIn.turns("T0002")).toContainText("L3–3", SYNCED);
    await expect(spanIn.evidence("T0002")).toContainText("L3–3", SYNCED);
    appendFileSync(file, `${reply}\n`);
    await expect(spanIn.turns("T0002")).toContainText("L3–4", SYNCED);
    await expect(spanIn.evidence("T0002")).toContainText("L3–4", SYNCED);
    // Both panes agree on every turn, and the first one did not move.
    await expect(spanIn.turns("T0001")).toContainText("L1–2");
    await expect(spanIn.evidence("T0001")).toContainText("L1–2");
    expect(await page.evaluate(() => (window as unknown as { __live?: number }).__live)).toBe(1);
  });
});

test("the home page shows the window as all time when there is no date window (issue 12, item 12)", async ({ homePage, page }) => {
  await homePage.goto();
  const header = page.locator("header").filter({ has: page.getByRole("heading", { name: "Projects" }) });
  await expect(header.locator("dt", { hasText: "Window" })).toBeVisible();
  await expect(header.locator("dd", { hasText: "all time" })).toHaveText("all time");
});
