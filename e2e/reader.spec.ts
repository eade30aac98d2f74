import { dropChains, findWorkspaceSession, writeEvidenceWithCli } from "./evidence-workspace";
import { expect, test } from "./fixtures";
import { HIDDEN_WORD, READER_LINES as L, READER_PROJECT_LABEL, READER_SESSION_ID } from "./fixtures/make-reader-case";
import { HAS_CORPUS, LONG_SESSION, NO_CORPUS_REASON, SYNTHESIS_PROJECT_LABEL } from "./paths";
import { findProjectByLabel } from "./synthesis-workspace";

/** LONG_SESSION's subagent `agent-a881341` (10 lines), spawned by the Task call on main line 1473. */
const SUBAGENT = { agentId: "agent-a881341", spawnLine: 1473 } as const;

/*
 * Issue 29, "A reviewer's reader" (Playwright, Chromium): every record says what happened in one
 * line (API errors, tool calls and results) in the viewer and the Timeline; Markdown and diffs;
 * search marks its matches, opens the collapsed result that holds one, and resets with the query.
 * Reads the generated reader session (e2e/fixtures/make-reader-case.ts); writes nothing.
 */
test.describe("a reviewer's reader", () => {
  test("compact records say what happened: API errors, calls with paths, results with exit codes", async ({ page, viewerPage }) => {
    const session = findWorkspaceSession(READER_SESSION_ID);
    await page.goto(session.url);
    await viewerPage.waitForLoaded();
    const headline = (line: number) => viewerPage.row(line).getByTestId("record-headline");
    await expect(headline(L.read)).toHaveText("Read(src/auth.ts)");
    await expect(headline(L.edit)).toHaveText("Edit(src/auth.ts, +2 −1)");
    await expect(headline(L.bashResult)).toHaveText("Bash(npm test) → exit 1");
    await expect(headline(L.firstApiError)).toHaveText("API error 529 overloaded_error (retry 1/10)");
    await expect(headline(L.firstApiError + 1)).toHaveText("API error 529 overloaded_error (retry 2/10)");
    await viewerPage.jumpInput().fill(String(L.hook));
    await viewerPage.jumpInput().press("Enter");
    await expect(headline(L.summary)).toHaveText("Summary: Login bug fix with failing test");
    await expect(headline(L.hook)).toContainText("Hook PostToolUse:Edit");
    await expect(viewerPage.row(L.firstApiError)).not.toContainText("system:api_error record.");
  });

  test("Timeline rows name the call, its path and the API error", async ({ page }) => {
    const session = findWorkspaceSession(READER_SESSION_ID);
    await page.goto(`${session.url}/timeline`);
    const headlines = page.getByTestId("timeline-headline");
    await expect(headlines.filter({ hasText: /^Read\(src\/auth\.ts\)$/ })).toHaveCount(1);
    await expect(headlines.filter({ hasText: /^Bash\(npm test\) → exit 1$/ })).toHaveCount(1);
    await expect(headlines.filter({ hasText: "API error 529 overloaded_error" })).toHaveCount(6);
  });

  test("Markdown with highlighted code, no raw HTML; an Edit as a unified diff; raw line one key away", async ({ page, viewerPage }) => {
    const session = findWorkspaceSession(READER_SESSION_ID);
    await page.goto(session.url);
    await viewerPage.waitForLoaded();
    const md = viewerPage.row(L.markdown).getByTestId("markdown");
    await expect(md.locator("strong")).toHaveText("two steps");
    await expect(md.locator("ol > li")).toHaveCount(2);
    await expect(md.locator("pre code.hljs .hljs-keyword").first()).toHaveText("const");
    await expect(md).toContainText("<script>"); // shown as text, never run
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    await expect(md.locator("script, b")).toHaveCount(0);
    await expect(viewerPage.row(L.prompt).getByTestId("markdown").locator("strong")).toHaveText("login");

    const diff = viewerPage.row(L.edit).getByTestId("edit-diff");
    await expect(diff.locator('[data-diff="del"]')).toHaveText(["-  return check(user);"]);
    await expect(diff.locator('[data-diff="add"]')).toHaveText(['+  if (!user) throw new Error("no user");', "+  return check(user.trim());"]);

    await viewerPage.focusTranscript();
    await page.keyboard.press("f");
    await expect(viewerPage.modeButton("Full")).toHaveAttribute("aria-pressed", "true");
    await expect(viewerPage.row(L.edit)).toContainText('"old_string":"  return check(user);"');
  });

  test("search marks matches, opens a collapsed result holding one, and resets with the query", async ({ page, viewerPage }) => {
    const session = findWorkspaceSession(READER_SESSION_ID);
    await page.goto(session.url);
    await viewerPage.waitForLoaded();
    const box = page.getByRole("searchbox", { name: "Search this transcript" });
    const status = page.getByTestId("search-status");
    await box.fill("overloaded");
    await box.press("Enter");
    await expect(status).toHaveText(/^1 \/ 6/);
    await expect(viewerPage.row(L.firstApiError).locator("mark")).not.toHaveCount(0);
    await expect(viewerPage.row(L.firstApiError).locator("mark").first()).toHaveText(/overloaded/i);

    await box.fill(HIDDEN_WORD);
    await expect(status).toHaveText(""); // a new query drops the old counter
    await expect(page.locator("mark")).toHaveCount(0);
    await box.press("Enter");
    await expect(status).toHaveText(/^1 \/ 1/);
    const result = viewerPage.row(L.readResult);
    await expect(result.locator("mark")).toHaveText(HIDDEN_WORD);
    await expect(result.locator("mark")).toBeVisible();
    await expect(result.getByRole("button", { name: "Show less" })).toBeVisible();

    await box.press("Escape");
    await expect(box).toHaveValue("");
    await expect(status).toHaveText("");
    await expect(page.locator("mark")).toHaveCount(0);
  });
});

test.describe("session pages of the long corpus session", () => {
  test.skip(!HAS_CORPUS, NO_CORPUS_REASON);

  test("a subagent view lists its own turns and overview, and leads back to the line that spawned it", async ({ page, viewerPage }) => {
    const session = findWorkspaceSession(LONG_SESSION.sourceSessionId);
    await page.goto(`${session.url}?agent=${SUBAGENT.agentId}`);
    await viewerPage.waitForLoaded();
    const turns = page.getByRole("navigation", { name: "Turns" });
    await expect(turns.getByRole("heading")).toHaveText("Turns (1)");
    await expect(turns.getByRole("button")).toHaveText([/^T0001\s*L1–10/]);
    await expect(viewerPage.row(1).getByText("T0001", { exact: true })).toBeVisible(); // its own turn label in the transcript
    const overview = page.getByTestId("subagent-overview");
    await expect(overview).toContainText("Task: What is the output contract for Claude Code hooks");
    await expect(page.getByTestId("session-overview")).toHaveCount(0); // not the main session's banner
    const back = page.getByTestId("subagent-back");
    await expect(back).toHaveText(`← ${session.sessionRef} line ${SUBAGENT.spawnLine}`);
    await back.click();
    await expect(page).toHaveURL(new RegExp(`/sessions/${session.sessionRef}#L${SUBAGENT.spawnLine}$`));
    await expect(viewerPage.row(SUBAGENT.spawnLine)).toHaveAttribute("data-highlighted", "true");
    await expect(viewerPage.row(SUBAGENT.spawnLine).getByTestId("record-headline")).toContainText("Task(");
  });

  test("Transcript, Timeline, Analysis and Chat export share one frame: breadcrumb, tabs, overview, in one place", async ({ page }) => {
    const session = findWorkspaceSession(LONG_SESSION.sourceSessionId);
    const places: number[] = [];
    for (const tab of ["Transcript", "Timeline", "Analysis", "Chat export"]) {
      await page.goto(session.url);
      await page.getByRole("navigation", { name: "Session views" }).getByRole("link", { name: tab }).click();
      const tabs = page.getByRole("navigation", { name: "Session views" });
      await expect(tabs.getByRole("link", { name: tab })).toHaveAttribute("aria-current", "page");
      const frame = page.getByTestId("session-frame");
      const crumb = await frame.getByRole("navigation", { name: "Breadcrumb" }).boundingBox();
      const bar = await tabs.boundingBox();
      const overview = await frame.getByTestId("session-overview").boundingBox();
      expect(crumb && bar && overview, tab).toBeTruthy();
      expect(crumb!.y, `${tab}: breadcrumb above the tabs`).toBeLessThan(bar!.y);
      expect(bar!.y, `${tab}: tabs above the overview`).toBeLessThan(overview!.y);
      await expect(frame.getByRole("heading", { level: 1 })).toHaveText(session.sessionRef);
      places.push(Math.round(bar!.y));
    }
    expect(new Set(places).size, `tab bar y on the four tabs: ${places.join(", ")}`).toBe(1);
  });
});

test.describe("the Audit page", () => {
  test("hides the dashboard's own reads by default, one toggle shows them; filters live in the URL; results are whole", async ({ page, request }) => {
    // Opening a session makes the dashboard read through its tools (door ui).
    await page.goto(findWorkspaceSession(READER_SESSION_ID).url);
    await expect(page.getByTestId("line-row").first()).toBeVisible();
    const uiCalls = (await (await request.get("/api/audit?door=ui&max_entries=200")).json()) as { entries: { tool_name: string }[] };
    const readTool = uiCalls.entries.map((e) => e.tool_name).find((name) => /^(get_|list_|read_|session_overview|reconstruct_session)/.test(name));
    expect(readTool, "a dashboard read in the ledger").toBeTruthy();

    await page.goto("/audit");
    const table = page.getByRole("table", { name: "Tool calls" });
    await expect(page.getByTestId("audit-count")).toContainText("dashboard reads hidden");
    await expect(table.getByRole("row").filter({ hasText: readTool! }).filter({ hasText: "ui" })).toHaveCount(0);

    await page.getByLabel("Show dashboard reads").check();
    await expect(page).toHaveURL(/[?&]ui_reads=1/);
    await expect(table.getByRole("row").filter({ hasText: readTool! }).first()).toBeVisible();

    await page.getByRole("combobox", { name: "Door" }).selectOption("ui");
    await expect(page).toHaveURL(/[?&]door=ui/);
    await page.reload();
    await expect(page.getByRole("combobox", { name: "Door" })).toHaveValue("ui");
    await expect(page.getByLabel("Show dashboard reads")).toBeChecked();

    // No result text is cut by its column.
    const cut = await page.getByTestId("audit-result").evaluateAll((cells) => cells.filter((c) => c.scrollWidth > c.clientWidth + 1 || c.getBoundingClientRect().right > (c.closest('[role="cell"]')?.getBoundingClientRect().right ?? Infinity) + 1).map((c) => c.textContent));
    expect(cut).toEqual([]);
  });
});

test.describe("forms and evidence state", () => {
  test("the synthesis form starts at the kind open turns qualify for; an empty create says what to do, no raw path", async ({ page, synthesisPage: sp }) => {
    await sp.goto(findProjectByLabel(SYNTHESIS_PROJECT_LABEL).projectKey);
    await expect(sp.field("Kind")).toHaveValue("evidence_gap_item");
    await sp.field("Title").fill("A gap");
    await sp.form().getByRole("button", { name: /^Create / }).click();
    await expect(sp.form()).toContainText("Select at least one turn in the strip above.");
    await expect(sp.form()).not.toContainText("work_item.");
    await expect(page.getByText("exact message")).toHaveCount(0);
  });

  test("after a chain is created and deleted, the evidence panel is back to missing", async ({ page, evidencePanel: ev, viewerPage }) => {
    const session = findWorkspaceSession(READER_SESSION_ID);
    dropChains(session, ["T0001", "T0002"]);
    const chain = {
      turn_ref: "T0001",
      trigger: { type: "explicit_user_message", summary: "The user asks for a fix.", quoted_messages: [], citations: [{ lines: "1-1" }] },
      agent_reactions: [{ summary: "The agent reads, edits and tests.", citations: [{ lines: "3-8" }] }],
      outcomes: [],
      observed_checks: [],
      terminal_state: { type: "clarification_only", summary: "Nothing changed for good.", citations: [{ lines: "15-15" }] },
      materiality: "minor",
    };
    expect(writeEvidenceWithCli(session, chain).status).toBe("appended");
    await page.goto(session.url);
    await viewerPage.waitForLoaded();
    await expect(ev.panel().getByTestId("card-status")).toHaveText("partial");
    await ev.expandTurn("T0001");
    await ev.turn("T0001").getByRole("button", { name: "Delete chain…" }).click();
    await ev.turn("T0001").getByRole("button", { name: "Delete", exact: true }).click();
    await expect(ev.panel().getByTestId("card-status")).toHaveText("missing");
    await expect(ev.panel()).not.toContainText("Inspector:");
  });
});

test.describe("project search", () => {
  test("is one click from the project page; hits show session title, turn and a readable snippet with the match marked", async ({ page, homePage }) => {
    await homePage.goto();
    await homePage.openProject(READER_PROJECT_LABEL);
    await page.getByRole("navigation", { name: "Project views" }).getByRole("link", { name: "Search" }).click();
    const box = page.getByRole("searchbox", { name: "Search every session of the project" });
    await box.fill("read the file");
    await box.press("Enter");
    const hit = page.getByTestId("search-hit").first();
    await expect(hit.getByTestId("hit-title")).toContainText("Please fix the **login** bug");
    await expect(hit.getByTestId("hit-link")).toHaveText("T0001 · L1");
    await expect(hit.getByTestId("hit-snippet").locator("mark")).toHaveText("read the file");
    await expect(hit.getByTestId("hit-snippet")).toContainText("src/auth.ts`: - read the file - run the tests");
    await expect(hit.getByTestId("hit-snippet")).not.toContainText("\\n");
    await hit.getByTestId("hit-link").click();
    await expect(page).toHaveURL(/#L1$/);
  });
});
