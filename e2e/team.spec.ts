import { HAS_POSTGRES, postgresSuiteName, SKIP_POSTGRES_MESSAGE } from "../lib/testing/postgres";
import type { GetUsageResult } from "../lib/usage/schema";
import { expect, test } from "./fixtures";
import { LoginPage } from "./pages/login-page";
import { HAS_CORPUS, NO_CORPUS_REASON } from "./paths";
import { TeamServer } from "./team-server";

/*
 * Issue 39 as a team sees it: a team server (`casefile serve --database`) on a fresh PostgreSQL
 * database, fed by two machines' `casefile push` (a slice of the corpus each, e2e/team-server.ts),
 * read in the browser with a reviewer's read token. Its own server on a free port: the suite's
 * usual server (playwright.config's webServer) is a local dashboard, with no tokens.
 */

/** The team server with both machines' slices pushed, one for the worker: made for the first test, stopped (database dropped) at the end. */
const teamTest = test.extend<{ signIn: () => Promise<void> }, { team: TeamServer }>({
  team: [
    async ({}, provide) => {
      const team = await TeamServer.start();
      try {
        const pushed = [await team.push("alpha"), await team.push("beta")];
        const sent = { sessions_sent: 2, sessions_unchanged: 0, bytes_sent: expect.any(Number), errors: [] };
        expect(pushed).toEqual([sent, sent]);
        await provide(team);
      } finally {
        await team.stop();
      }
    },
    { scope: "worker", timeout: 240_000 },
  ],
  baseURL: async ({ team }, provide) => provide(team.url),
  // Signs the reviewer in with the read token: the home page sends a browser without one to the sign-in form, which goes back home.
  signIn: async ({ page, team }, provide) =>
    provide(async () => {
      await page.goto("/");
      await expect(page).toHaveURL(/\/login$/);
      await new LoginPage(page).signIn(team.tokens.reviewer);
      await expect(page).toHaveURL(/\/$/);
    }),
});

teamTest.describe(postgresSuiteName("team server (issue 39)"), () => {
  teamTest.skip(!HAS_POSTGRES, SKIP_POSTGRES_MESSAGE);
  teamTest.skip(!HAS_CORPUS, NO_CORPUS_REASON);

  teamTest("a page without a token goes to the sign-in form, an API call gets 401, an unknown token is refused", async ({ page }) => {
    const login = new LoginPage(page);
    await page.goto("/usage");
    await expect(page).toHaveURL(/\/login\?next=%2Fusage$/);
    await expect(login.heading()).toBeVisible();
    // Nobody is signed in: no Sign out is offered.
    await expect(page.getByRole("button", { name: "Sign out" })).toHaveCount(0);
    const api = await page.request.post("/api/tools/list_projects", { data: {} });
    expect([api.status(), ((await api.json()) as { error: { code: string } }).error.code]).toEqual([401, "unauthorized"]);

    await login.signIn(`cft_${"A".repeat(43)}`);
    await expect(page).toHaveURL(/\/login\?failed=1&next=%2Fusage$/);
    await expect(login.refusal()).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign out" })).toHaveCount(0);
  });

  teamTest("a link opened before signing in is where the sign-in lands; /login then says who is signed in", async ({ page, team }) => {
    const login = new LoginPage(page);
    await page.goto("/usage?table=machine&period=week");
    await expect(page).toHaveURL(/\/login\?next=%2Fusage%3Ftable%3Dmachine%26period%3Dweek$/);
    await login.signIn(team.tokens.reviewer);
    await expect(page).toHaveURL(/\/usage\?table=machine&period=week$/);
    await expect(page.getByRole("heading", { name: "Usage" })).toBeVisible();
    // A link to another site in ?next is not followed: the sign-in lands home.
    await page.goto("/login?next=%2F%2Fevil.example%2F");
    await expect(login.panelSignedIn()).toContainText("Signed in as reviewer · read.");
    await page.screenshot({ path: "e2e/.tmp/screenshots/team-login-signed-in.png" });
    await login.signIn(team.tokens.reviewer, "Sign in with another token");
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  teamTest("a read token signs in to the project list; a project shows both machines' sessions and the Machine filter narrows them", async ({ page, signIn, homePage, projectPage }) => {
    await signIn();
    await expect(homePage.heading()).toBeVisible();
    await expect(new LoginPage(page).signedIn()).toContainText("reviewer · read");
    // The server prepares what was pushed in the background; the page shows it once that sync is done (live, no reload).
    for (const label of ["spotter", "workspace", "repo"]) await expect(homePage.projectLink(label)).toBeVisible({ timeout: 120_000 });
    await page.screenshot({ path: "e2e/.tmp/screenshots/team-home.png" });

    await homePage.openProject("spotter");
    await projectPage.expectTotalRows(2);
    await expect(projectPage.columnHeader("Machine")).toBeVisible();
    const machineCell = (name: string) => projectPage.table().getByRole("cell", { name, exact: true });
    await expect(machineCell("alpha")).toBeVisible();
    await expect(machineCell("beta")).toBeVisible();
    await page.screenshot({ path: "e2e/.tmp/screenshots/team-project.png" });

    await page.getByLabel("Machine", { exact: true }).selectOption("beta");
    await expect(page).toHaveURL(/[?&]machine=beta\b/);
    await projectPage.expectTotalRows(1);
    await expect(machineCell("alpha")).toHaveCount(0);
    await projectPage.openSession();
    await expect(page.getByLabel("Session facts")).toContainText(/machine\s*beta/);
  });

  teamTest("the Usage page counts each machine's tokens, adding up to the total", async ({ page, signIn }) => {
    await signIn();
    await page.goto("/usage?table=machine");
    const table = page.getByTestId("usage-table");
    await expect(table.getByTestId("usage-row")).toHaveCount(2);
    const rows = await table.getByTestId("usage-row").evaluateAll((trs) => trs.map((tr) => ({ key: tr.getAttribute("data-key"), tokens: Number(tr.getAttribute("data-total-tokens")) })));
    expect(rows.map((r) => r.key).sort()).toEqual(["alpha", "beta"]);
    for (const { tokens } of rows) expect(tokens).toBeGreaterThan(0);
    await expect(table.getByTestId("usage-total")).toHaveAttribute("data-total-tokens", String(rows[0]!.tokens + rows[1]!.tokens));
    // With the table by machine the chart's bars stack by machine too, drawing the same total.
    const chart = page.getByRole("figure", { name: "Tokens over time by machine" });
    await expect(chart).toHaveAttribute("data-total-tokens", String(rows[0]!.tokens + rows[1]!.tokens));
    await expect(chart.locator(".recharts-legend-item-text")).toHaveText(["alpha", "beta"]);
    await page.screenshot({ path: "e2e/.tmp/screenshots/team-usage-by-machine.png" });
    // The same figures as get_usage by machine, asked with the cookie the sign-in set.
    const byMachine = (await (await page.request.post("/api/tools/get_usage", { data: { group_by: "machine" } })).json()) as GetUsageResult;
    expect(Object.fromEntries(byMachine.rows.map((r) => [r.key, r.total_tokens]))).toEqual(Object.fromEntries(rows.map((r) => [r.key, r.tokens])));
  });

  teamTest("the search page offers both machines in its Machine filter, which narrows the search to one", async ({ page, signIn }) => {
    await signIn();
    await page.goto("/search");
    const machine = page.getByRole("combobox", { name: "Machine" });
    await expect(machine.locator("option")).toHaveText(["any machine", "alpha", "beta"]);
    await machine.selectOption("beta");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/[?&]machine=beta\b/);
    await expect(machine).toHaveValue("beta");
    await expect(page.getByTestId("search-summary")).toBeVisible();
    await page.screenshot({ path: "e2e/.tmp/screenshots/team-search-machine.png" });
  });

  teamTest("a read token may not write evidence: Create chain is disabled with the reason, a write sent anyway is refused, the Audit page shows the refused call and its caller", async ({ page, signIn, homePage, projectPage, evidencePanel: ev }) => {
    await signIn();
    await homePage.openProject("workspace");
    await projectPage.openSession("S0001");
    await ev.expandTurn("T0001");
    const create = ev.turn("T0001").getByRole("button", { name: "Create chain" });
    await expect(create).toBeDisabled();
    await expect(create).toHaveAccessibleDescription("Your token is read-only (machine reviewer): it may read, not write. Ask for a push or admin token to write.");
    await page.screenshot({ path: "e2e/.tmp/screenshots/team-read-only-evidence.png" });

    // The server refuses the write all the same (the control is only a courtesy), with the cookie the sign-in set.
    const projectKey = decodeURIComponent(/\/projects\/([^/]+)\/sessions\//.exec(page.url())![1]!);
    const sent = await page.request.post("/api/tools/create_evidence_chain", { data: { project_key: projectKey, session_ref: "S0001", evidence_chain: {} } });
    expect([sent.status(), ((await sent.json()) as { error: { message: string } }).error.message]).toEqual([403, expect.stringContaining("a read token may call read-only tools only")]);
    await page.reload();
    await ev.expandTurn("T0001");
    await expect(ev.turn("T0001")).toHaveAttribute("data-state", "none");

    // The Audit page shows the refused call and whose token made it.
    await page.goto("/audit");
    const row = page.getByRole("table", { name: "Tool calls" }).getByRole("row").filter({ hasText: "create_evidence_chain" });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("http · reviewer");
    await expect(row.getByTestId("audit-result")).toHaveText("denied · forbidden");
    await row.click();
    await expect(page.getByRole("complementary", { name: "Call detail" })).toContainText("machine reviewer · role read");
  });

  teamTest("on a phone-width window the header keeps the links and Sign out on screen", async ({ page, signIn }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn();
    await expect(page.getByRole("table", { name: "Projects" })).toBeVisible();
    const header = page.getByRole("banner");
    for (const name of ["Usage", "Audit"]) await expect(header.getByRole("link", { name, exact: true })).toBeInViewport();
    await expect(header.getByRole("button", { name: "Sign out" })).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  teamTest("a team server no machine has pushed to yet shows how machines push, on every page, instead of an error", async ({ page }) => {
    const empty = await TeamServer.start();
    try {
      await page.goto(`${empty.url}/`);
      await new LoginPage(page).signIn(empty.tokens.reviewer);
      await expect(page.getByText("No machine has pushed sessions to this team server yet.")).toBeVisible();
      await expect(page.getByText("casefile push --server URL --token TOKEN")).toBeVisible();
      for (const route of ["/usage", "/search?q=error", "/audit"]) {
        await page.goto(`${empty.url}${route}`);
        await expect(page.getByRole("banner")).toBeVisible();
        await expect(page.getByText("Something went wrong")).toHaveCount(0);
      }
    } finally {
      await empty.stop();
    }
  });

  teamTest("Sign out clears the sign-in: pages go to the sign-in form again", async ({ page, signIn }) => {
    await signIn();
    const login = new LoginPage(page);
    await login.signOut();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("button", { name: "Sign out" })).toHaveCount(0);
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
    await expect(login.tokenField()).toBeVisible();
  });
});
