import { EDGE_PROJECT_LABEL, MANY_PROJECT_LABEL, MANY_SESSIONS_COUNT } from "./fixtures/make-edge-cases";
import { expect, test } from "./fixtures";
import { ProjectPage } from "./pages/project-page";
import { HAS_CORPUS, LONG_SESSION, NO_CORPUS_REASON } from "./paths";

test.describe("home", () => {
  test("lists the workspace's projects with the workspace header", async ({ homePage, page }) => {
    await homePage.goto();
    await expect(homePage.heading()).toBeVisible();
    await expect(page.getByText(/e2e\/\.tmp\/workspace/)).toBeVisible();
    await expect(homePage.projectLink(EDGE_PROJECT_LABEL)).toBeVisible();
    await expect(homePage.projectLink(MANY_PROJECT_LABEL)).toBeVisible();
  });

  test("a project link shows it is pending while a slow project page renders", async ({ homePage, page }) => {
    await homePage.goto();
    const link = homePage.projectLink(MANY_PROJECT_LABEL);
    // The project page's own request (the RSC payload of a client navigation) is held back 1.5 s.
    await page.route(/\/projects\/[^/?]+\?_rsc=/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue().catch(() => undefined);
    });
    await link.click();
    await expect(link.locator("[data-pending]")).toBeVisible();
    await page.waitForURL(/\/projects\/[^/]+$/);
    await expect(page.getByRole("table", { name: "Sessions" })).toBeVisible();
  });

  test("lists the projects most recently active first, with dates and tokens (issue 25)", async ({ homePage, page }) => {
    await homePage.goto();
    await expect(page.getByRole("columnheader", { name: "Last activity" })).toBeVisible();
    await expect(page.getByRole("columnheader", { name: "Tokens" })).toBeVisible();
    const times = (await page.locator("tbody time[datetime]").evaluateAll((els) => els.map((e) => e.getAttribute("datetime") ?? ""))).filter((t) => t !== "");
    expect(times.length).toBeGreaterThan(1);
    expect(times).toEqual([...times].sort((a, b) => Date.parse(b) - Date.parse(a)));
  });

  test("lists the corpus projects", async ({ homePage }) => {
    test.skip(!HAS_CORPUS, NO_CORPUS_REASON);
    await homePage.goto();
    await expect(homePage.projectLink(LONG_SESSION.projectLabel)).toBeVisible();
    await expect(homePage.projectLink("claude-bug")).toBeVisible();
  });
});

test.describe("project session table", () => {
  test.beforeEach(async ({ homePage }) => {
    await homePage.goto();
    await homePage.openProject(MANY_PROJECT_LABEL);
  });

  test("shows the sessions in a virtualized table", async ({ projectPage }) => {
    await expect(projectPage.table()).toBeVisible();
    await projectPage.expectTotalRows(MANY_SESSIONS_COUNT);
    await expect(projectPage.dataRows().first()).toBeVisible();
    // Virtualized: far fewer rows in the DOM than sessions.
    expect(await projectPage.dataRows().count()).toBeLessThan(MANY_SESSIONS_COUNT);
    await expect(projectPage.columnHeader("Started")).toHaveAttribute("aria-sort", "descending");
    // Every session came from this machine: no Machine column or filter (issue 39: shown only for two or more).
    await expect(projectPage.columnHeader("Source")).toBeVisible();
    await expect(projectPage.columnHeader("Machine")).toHaveCount(0);
    await expect(projectPage.page.getByLabel("Machine", { exact: true })).toHaveCount(0);
  });

  test("sorting by a column header changes the rows and the URL", async ({ projectPage, page }) => {
    await expect(projectPage.dataRows().first()).toBeVisible();
    await projectPage.sortBy("Session");
    await expect(projectPage.columnHeader("Session")).toHaveAttribute("aria-sort", "ascending");
    await expect(page).toHaveURL(/sort=session_ref/);
    await expect(page).toHaveURL(/order=asc/);
    // prepare numbers sessions S0001… per project (contract §1.5).
    await expect(projectPage.firstRowRef()).toHaveText("S0001");

    await projectPage.sortBy("Session");
    await expect(projectPage.columnHeader("Session")).toHaveAttribute("aria-sort", "descending");
    await expect(projectPage.firstRowRef()).toHaveText(`S${String(MANY_SESSIONS_COUNT).padStart(4, "0")}`);
    await expect(projectPage.columnHeader("Started")).toHaveAttribute("aria-sort", "none");
  });

  test("filtering narrows the rows and is kept in the URL", async ({ projectPage, page }) => {
    await projectPage.filter().fill("charlie");
    await expect(page).toHaveURL(/q=charlie/);
    await projectPage.expectTotalRows(MANY_SESSIONS_COUNT / 3);

    await projectPage.filter().fill("needle-077");
    await projectPage.expectTotalRows(1);
    await expect(projectPage.dataRows()).toHaveCount(1);
    await expect(projectPage.dataRows().first()).toContainText("needle-077");

    await projectPage.filter().fill("no-such-session-anywhere");
    await projectPage.expectTotalRows(0);
    await expect(page.getByText(/No sessions match/)).toBeVisible();

    await projectPage.filter().fill("");
    await projectPage.expectTotalRows(MANY_SESSIONS_COUNT);
  });

  test("sort and filter come back from a shared link", async ({ projectPage, page }) => {
    const url = new URL(page.url());
    await page.goto(`${url.pathname}?sort=duration_seconds&order=asc&q=bravo`);
    await expect(projectPage.filter()).toHaveValue("bravo");
    await expect(projectPage.columnHeader("Duration")).toHaveAttribute("aria-sort", "ascending");
    await projectPage.expectTotalRows(MANY_SESSIONS_COUNT / 3);
  });

  test("scrolling the table loads more pages", async ({ projectPage, page }) => {
    const offsets: number[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith("/sessions")) offsets.push(Number(url.searchParams.get("offset") ?? 0));
    });
    await page.reload();
    await expect(projectPage.dataRows().first()).toBeVisible();
    await expect(projectPage.row(MANY_SESSIONS_COUNT + 1)).toHaveCount(0);

    await expect(async () => {
      await projectPage.scrollTableToBottom();
      await expect(projectPage.row(MANY_SESSIONS_COUNT + 1)).toBeInViewport({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    expect(Math.max(...offsets)).toBeGreaterThan(0);
  });

  test("the first rows come with the page, in the URL's sort, without the list API", async ({ page, browser }) => {
    const url = new URL(page.url());
    const rendered = await page.getByRole("table", { name: "Sessions" }).getByRole("row").filter({ has: page.getByRole("cell") }).first().getByRole("link").first().textContent();
    const context = await browser.newContext();
    try {
      const fresh = new ProjectPage(await context.newPage());
      // The table's own request for rows fails: whatever rows show came with the page.
      let listRequests = 0;
      await fresh.page.route(/\/api\/projects\/[^/]+\/sessions\?/, (route) => {
        listRequests += 1;
        return route.abort();
      });
      await fresh.page.goto(`${url.origin}${url.pathname}`);
      await expect(fresh.dataRows().first()).toBeVisible();
      expect(await fresh.dataRows().count()).toBeGreaterThan(10);
      await expect(fresh.dataRows().first().getByRole("link").first()).toHaveText(rendered ?? "");
      // Another order in the URL: the page's first rows follow it.
      await fresh.page.goto(`${url.origin}${url.pathname}?sort=session_ref&order=asc`);
      await expect(fresh.dataRows().first()).toBeVisible();
      const refs = await fresh.dataRows().evaluateAll((rows) => rows.slice(0, 5).map((r) => r.querySelector("a")?.textContent ?? ""));
      expect(refs).toEqual([...refs].sort());
      expect(refs[0]).not.toBe("");
      expect(listRequests).toBe(0);
    } finally {
      await context.close();
    }
  });

  test("a session whose risk is still being computed says so, then shows its risk when the list has it", async ({ projectPage, page }) => {
    // The first answer names the first row in risk_pending (a large session never analysed); later ones are the server's.
    let answers = 0;
    await page.route(/\/api\/projects\/[^/]+\/sessions\?/, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { sessions: { session_ref: string; risk_level: string | null; reset_count: number | null }[]; risk_pending: string[] };
      if (answers++ === 0) {
        body.risk_pending = [body.sessions[0]!.session_ref];
        body.sessions[0]!.risk_level = null;
        body.sessions[0]!.reset_count = null;
      }
      await route.fulfill({ response, json: body });
    });
    await projectPage.sortBy("Session");
    const row = projectPage.dataRows().first();
    await expect(row.getByText("analysing…")).toBeVisible();
    // The table asks again while a risk is pending, and the badge takes the place of the note.
    await expect(row.locator("[data-risk]")).toBeVisible({ timeout: 10_000 });
    await expect(row.getByText("analysing…")).toHaveCount(0);
    expect(answers).toBeGreaterThanOrEqual(2);
  });

  test("a row links to the session viewer", async ({ projectPage, page }) => {
    await projectPage.openSession();
    await expect(page.getByTestId("line-row").first()).toBeVisible();
  });
});

test("an unknown project answers 404 with the dashboard's frame and the way home", async ({ page }) => {
  const response = await page.goto("/projects/no-such-project-000000000000");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to projects" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("a corpus project lists its sessions", async ({ homePage, projectPage }) => {
  test.skip(!HAS_CORPUS, NO_CORPUS_REASON);
  await homePage.goto();
  await homePage.openProject("claude-bug");
  await expect(projectPage.dataRows().first()).toBeVisible();
  expect(await projectPage.totalRows()).toBeGreaterThan(1);
});
