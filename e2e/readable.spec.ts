import { findWorkspaceSession } from "./evidence-workspace";
import { expect, test } from "./fixtures";
import { HAS_CORPUS, NO_CORPUS_REASON } from "./paths";

/*
 * Issue 12, "A transcript a person can read" and "The editor, smoothed" (Playwright): a
 * slash-command session reads as the command, coloured tool output shows no escape junk, a
 * shared deep link with full mode and a filter opens as shared, and Cite fills the one row the
 * reviewer made for it. (A per-turn edit surviving an agent's append is in evidence.spec.ts.)
 * Nothing here writes to the workspace: the editor is cancelled.
 */

/** Claude Code 2.1.6: line 1 a summary record, line 7 `/wsd:init --custom` (T0001 7–40), line 16 a Bash result with `ESC(B ESC[m`, line 39 a turn_duration record, T0002 from 41. */
const SLASH_SESSION = "bf88e2ff-ac8b-4f29-8dbf-c2467325fe4e";
const JUNK = /\u001b|\[m|\(B/;

test.describe("a transcript a person can read", () => {
  test.skip(!HAS_CORPUS, NO_CORPUS_REASON);

  test("the session table's first message of a slash-command session reads as the command", async ({ page, projectPage }) => {
    const session = findWorkspaceSession(SLASH_SESSION);
    await page.goto(`/projects/${encodeURIComponent(session.projectKey)}`);
    const row = projectPage.dataRows().filter({ hasText: session.sessionRef });
    await expect(row).toContainText("/wsd:init --custom");
    await expect(projectPage.table()).not.toContainText("<command-message>");
  });

  test("slash commands, colours, summary and system text; header facts; keys", async ({ page, viewerPage }) => {
    const session = findWorkspaceSession(SLASH_SESSION);
    await page.goto(session.url);
    await viewerPage.waitForLoaded();

    await expect(viewerPage.row(7).getByTestId("slash-command")).toHaveText("/wsd:init --custom");
    await expect(viewerPage.row(7)).not.toContainText("<command-name>");
    await expect(viewerPage.row(7).getByRole("link", { name: "7", exact: true })).toHaveAttribute("title", /^Line 7 · .*2026/);
    await expect(viewerPage.row(1)).toContainText("WSD Manifest-Driven Pipeline Plan Review");
    const facts = page.getByLabel("Session facts");
    await expect(facts).toContainText("2.1.6");
    await expect(facts).toContainText("/Users/gray/Projects/claude-bug");
    await expect(facts).toContainText(/branch\s*main/);
    await expect(facts).toContainText(/duration/);

    await viewerPage.jumpInput().fill("16");
    await viewerPage.jumpInput().press("Enter");
    await expect(viewerPage.row(16)).toContainText("20260113-100413");
    expect(await viewerPage.row(16).innerText()).not.toMatch(JUNK);
    await viewerPage.jumpInput().fill("39");
    await viewerPage.jumpInput().press("Enter");
    await expect(viewerPage.row(39)).toContainText("Turn took 2m 20s.");

    await viewerPage.focusTranscript();
    await page.keyboard.press("g");
    await page.keyboard.press("]");
    await expect(viewerPage.row(7)).toHaveAttribute("data-current", "true");
    await page.keyboard.press("]");
    await expect(viewerPage.row(41)).toHaveAttribute("data-current", "true");
    await page.keyboard.press("[");
    await expect(viewerPage.row(7)).toHaveAttribute("data-current", "true");
    await page.keyboard.press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(help).toContainText("next / previous turn");
    await page.keyboard.press("Escape");
    await expect(help).toBeHidden();
    await page.screenshot({ path: "e2e/.tmp/readable-viewer.png" });
    await viewerPage.expectRowBudget();
  });

  test("a shared deep link with full mode and a filter opens as shared", async ({ page, viewerPage }) => {
    const session = findWorkspaceSession(SLASH_SESSION);
    await page.goto(`${session.url}?mode=full&hide=system#L7`);
    await expect(viewerPage.modeButton("Full")).toHaveAttribute("aria-pressed", "true");
    const filters = page.getByRole("group", { name: "Hide records" });
    await expect(filters.getByLabel("system")).toBeChecked();
    await expect(filters.getByLabel("progress")).not.toBeChecked();
    await expect(viewerPage.row(7)).toHaveAttribute("data-highlighted", "true");
    await expect(viewerPage.row(7).getByRole("button", { name: "Expand line 7" })).toBeVisible();
    await viewerPage.scroller().evaluate((el) => el.scrollTo(0, 0));
    await expect(viewerPage.row(1)).toHaveAttribute("data-hidden", "true"); // the summary record is a system record
    await page.screenshot({ path: "e2e/.tmp/readable-deep-link.png" });

    // Changing the view rewrites the link, keeping the fragment.
    await filters.getByLabel("system").uncheck();
    await viewerPage.modeButton("Compact").click();
    await expect(page).toHaveURL(new RegExp(`${session.url.replace(/[/]/g, "\\/")}#L7$`));
    await filters.getByLabel("progress").check();
    await expect(page).toHaveURL(/\?hide=progress#L7$/);
    await expect(viewerPage.row(1)).toContainText("WSD Manifest-Driven Pipeline Plan Review");
    await viewerPage.expectRowBudget();
  });

  test("Cite fills the one empty row; 20-10 reads as an end before the start; the page shell stays", async ({ page, viewerPage, evidencePanel: ev }) => {
    const session = findWorkspaceSession(SLASH_SESSION);
    await page.goto(session.url);
    await viewerPage.waitForLoaded();

    await ev.openEditor("T0001", "Create chain");
    await ev.button("+ Add citation to Trigger").click();
    await expect(ev.field("Trigger citation 1")).toHaveValue("");
    await viewerPage.row(8).getByRole("link", { name: "8", exact: true }).click();
    await viewerPage.row(9).getByRole("link", { name: "9", exact: true }).click({ modifiers: ["Shift"] });
    await ev.citeButton().click();
    await expect(ev.field("Trigger citation 1")).toHaveValue("8-9");
    await expect(ev.field("Trigger citation 2")).toHaveCount(0);

    await ev.field("Trigger citation 1").fill("20-10");
    await expect(ev.field("Trigger citation 1")).toHaveAccessibleDescription(/^The end \(10\) is before the start \(20\)/);
    await ev.editor().getByText("exact message").first().click();
    await expect(ev.editor().getByText("evidence_chain.trigger.citations[0].lines must be a numeric line span")).toBeVisible();

    // A refused save moves focus to the first bad field: the panel scrolls, the page shell does not.
    await ev.save();
    await expect(ev.field("Trigger type")).toBeFocused();
    await expect(page.getByRole("link", { name: "Casefile" })).toBeInViewport();
    expect(await page.evaluate(() => [document.scrollingElement!.scrollTop, document.querySelector("main")!.scrollTop, document.querySelector("main")!.parentElement!.scrollTop])).toEqual([0, 0, 0]);
    await page.screenshot({ path: "e2e/.tmp/readable-cite.png" });

    await ev.button("Cancel").click();
    await expect(ev.editor()).toBeHidden();
  });

  test("one turn is open at a time in the evidence panel, and opening one scrolls the transcript to it", async ({ page, viewerPage, evidencePanel: ev }) => {
    const session = findWorkspaceSession(SLASH_SESSION);
    await page.goto(session.url);
    await viewerPage.waitForLoaded();
    await ev.expandTurn("T0002");
    await expect(viewerPage.row(41)).toBeInViewport();
    await ev.expandTurn("T0001");
    await expect(ev.turn("T0002").getByRole("button", { expanded: true })).toHaveCount(0);
    await expect(viewerPage.row(7)).toBeInViewport();
  });
});
