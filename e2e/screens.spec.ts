import { mkdirSync } from "node:fs";
import path from "node:path";

import { findWorkspaceSession } from "./evidence-workspace";
import { unreadableFields } from "./pages/fields";
import { expect, test } from "./fixtures";
import { READER_SESSION_ID } from "./fixtures/make-reader-case";
import { HAS_CORPUS, LONG_SESSION, NO_CORPUS_REASON, PHANTOM_BAD_SESSION, REPO_ROOT } from "./paths";

/*
 * Issue 29: every page at 1440 and 480 px, screenshotted to e2e/.tmp/screens/ for a person to
 * look at; at 480 px the transcript starts in the first third of the screen, the project's
 * session table keeps its columns (it scrolls sideways instead of clipping them) and every field
 * of every page shows its whole placeholder or value.
 */
const SHOTS = path.join(REPO_ROOT, "e2e", ".tmp", "screens");

test.describe("pages at 1440 and 480 px", () => {
  test.skip(!HAS_CORPUS, NO_CORPUS_REASON);

  test("at 480 px the transcript starts in the first third; the session table is not clipped", async ({ page, viewerPage }) => {
    await page.setViewportSize({ width: 480, height: 900 });
    const session = findWorkspaceSession(LONG_SESSION.sourceSessionId);
    await page.goto(session.url);
    await viewerPage.waitForLoaded();
    const first = await viewerPage.row(1).boundingBox();
    expect(first!.y, "first line's top at 480×900").toBeLessThan(300);

    await page.goto(`/projects/${encodeURIComponent(session.projectKey)}`);
    const table = page.getByRole("table").first();
    await expect(table.getByRole("row").nth(1)).toBeVisible();
    // Every header cell shows its whole label: the grid keeps its columns' widths and scrolls.
    const clipped = await table.getByRole("columnheader").evaluateAll((cells) =>
      cells.filter((c) => c.getBoundingClientRect().width < 24 || c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent),
    );
    expect(clipped).toEqual([]);
    expect(await table.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  });

  test("at 480 px the timeline keeps what each row did, the home table scrolls in its own box, the chat export stacks", async ({ page }) => {
    await page.setViewportSize({ width: 480, height: 900 });
    const reader = findWorkspaceSession(READER_SESSION_ID);
    await page.goto(`${reader.url}/timeline`);
    const headlines = page.getByTestId("timeline-headline");
    // The prompt's own words, not "User message.", and a tool call naming its file, both on screen.
    await expect(headlines.first()).toHaveText(/Please fix the login bug/);
    await expect(headlines.first()).toBeInViewport();
    const read = headlines.filter({ hasText: "Read(src/auth.ts)" }).first();
    await expect(read).toBeVisible();
    expect((await read.boundingBox())!.width, "the headline has room at 480 px").toBeGreaterThan(150);

    await page.goto("/");
    const table = page.getByRole("table").first();
    await expect(table).toBeVisible();
    // The page itself never scrolls sideways; the table's box does when it must.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    // Its own box ends at the screen's edge, and scrolls when the table is wider (it ran off the edge).
    const fits = await table.evaluate((el) => {
      const box = el.parentElement!;
      return box.getBoundingClientRect().right <= window.innerWidth && (el.getBoundingClientRect().right <= window.innerWidth || box.scrollWidth > box.clientWidth);
    });
    expect(fits).toBe(true);

    const bad = findWorkspaceSession(PHANTOM_BAD_SESSION.sourceSessionId);
    await page.goto(`${bad.url}/export`);
    const pane = page.getByTestId("export-pane");
    await expect(pane).toBeVisible();
    const transcript = page.getByTestId("line-row").first();
    await expect(transcript).toBeVisible();
    const [a, b] = [(await pane.boundingBox())!, (await transcript.boundingBox())!];
    expect(b.y, "the transcript sits below the export").toBeGreaterThan(a.y + a.height - 1);
    expect(b.width, "the transcript has the screen's width").toBeGreaterThan(300);
  });

  test("at 480 px every field of every page shows its whole placeholder or value, on screen", async ({ page }) => {
    await page.setViewportSize({ width: 480, height: 900 });
    const long = findWorkspaceSession(LONG_SESSION.sourceSessionId);
    const reader = findWorkspaceSession(READER_SESSION_ID);
    const pages: [string, string][] = [
      ["project", `/projects/${encodeURIComponent(long.projectKey)}`],
      ["transcript", reader.url],
      ["timeline", `${reader.url}/timeline`],
      ["project search", `/projects/${encodeURIComponent(reader.projectKey)}/search?q=overloaded`],
      ["synthesis", `/projects/${encodeURIComponent(long.projectKey)}/synthesis`],
      ["usage", "/usage"],
      ["audit", "/audit"],
    ];
    for (const [name, url] of pages) {
      await page.goto(url);
      await page.waitForLoadState("networkidle").catch(() => undefined);
      expect(await unreadableFields(page.locator("body")), `${name} at 480 px`).toEqual([]);
    }
  });

  for (const width of [1440, 480]) {
    test(`screenshots at ${width} px`, async ({ page }) => {
      test.setTimeout(180_000);
      mkdirSync(SHOTS, { recursive: true });
      await page.setViewportSize({ width, height: 900 });
      const long = findWorkspaceSession(LONG_SESSION.sourceSessionId);
      const reader = findWorkspaceSession(READER_SESSION_ID);
      const pages: [string, string][] = [
        ["home", "/"],
        ["project", `/projects/${encodeURIComponent(long.projectKey)}`],
        ["transcript", long.url],
        ["transcript-reader", `${reader.url}#L5`],
        ["subagent", `${long.url}?agent=agent-a881341`],
        ["timeline", `${reader.url}/timeline`],
        ["analysis", `${long.url}/analysis`],
        ["export", `${long.url}/export`],
        ["search", `/projects/${encodeURIComponent(reader.projectKey)}/search?q=overloaded`],
        ["search-all", "/search?q=overloaded"],
        ["usage", "/usage"],
        ["synthesis", `/projects/${encodeURIComponent(long.projectKey)}/synthesis`],
        ["audit", "/audit"],
      ];
      for (const [name, url] of pages) {
        await page.goto(url);
        await page.waitForLoadState("networkidle").catch(() => undefined);
        await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`) });
      }
    });
  }
});
