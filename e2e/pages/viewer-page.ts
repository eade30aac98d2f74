import { type APIRequestContext, expect, type Page } from "@playwright/test";

import type { ViewerLinesResult } from "../../lib/session-reader/schema";

/** Tests assert this after every step: the browser never renders more line rows. */
export const MAX_LINE_ROWS = 200;

/** The session viewer: virtualized line rows, mode toggle, jump-to-line, turns and subagents. */
export class ViewerPage {
  constructor(readonly page: Page) {}

  lineRows() {
    return this.page.getByTestId("line-row");
  }

  row(line: number) {
    return this.lineRows().and(this.page.locator(`[data-line="${line}"]`));
  }

  scroller() {
    return this.page.getByRole("region", { name: "Transcript lines" });
  }

  modeButton(name: "Compact" | "Full") {
    return this.page.getByRole("group", { name: "View mode" }).getByRole("button", { name, exact: true });
  }

  jumpInput() {
    return this.page.getByLabel("Jump to line");
  }

  /** The notice a `#L` past the last line gets ("Line 200 is past the end: …"). */
  pastEndNotice() {
    return this.page.getByRole("status").filter({ hasText: "past the end" });
  }

  /** Find in session (the tab bar's search box) and its status (`1 / 6 · n/N`, a malformed query's message). */
  searchBox() {
    return this.page.getByRole("searchbox", { name: "Search this transcript" });
  }

  searchStatus() {
    return this.page.getByTestId("search-status");
  }

  subagentLinks() {
    return this.page.getByRole("navigation", { name: "Subagents" }).getByRole("link");
  }

  mainSessionLink() {
    return this.page.getByRole("link", { name: /Main session/ });
  }

  async expectRowBudget() {
    const count = await this.lineRows().count();
    expect(count, `line rows in the DOM (max ${MAX_LINE_ROWS})`).toBeLessThanOrEqual(MAX_LINE_ROWS);
    return count;
  }

  /** Waits until the first line row has real content (not the loading placeholder). */
  async waitForLoaded(line = 1) {
    await expect(this.row(line)).toBeVisible();
    await expect(this.row(line).getByLabel("Loading line")).toHaveCount(0);
  }

  /** Moves keyboard focus off any input so single-key shortcuts apply. */
  async focusTranscript() {
    await this.page.getByRole("heading", { level: 1 }).click();
  }

  /** The line count as the lines API reports it, for the session open in the page. */
  async lineCountFromApi(request: APIRequestContext): Promise<number> {
    const url = new URL(this.page.url());
    const agent = url.searchParams.get("agent");
    const api = `/api${url.pathname}/lines?start=1&end=1&mode=compact${agent ? `&agent=${encodeURIComponent(agent)}` : ""}`;
    const response = await request.get(api);
    expect(response.ok(), `${api} → ${response.status()}`).toBeTruthy();
    return ((await response.json()) as ViewerLinesResult).line_count;
  }

  /** Scrolls the transcript to its end; rows measure as they appear, so repeat until the last is there. */
  async scrollToEnd(lastLine: number) {
    await expect(async () => {
      await this.scroller().evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await this.expectRowBudget();
      await expect(this.row(lastLine)).toBeInViewport({ timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
  }
}
