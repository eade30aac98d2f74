import type { Locator, Page } from "@playwright/test";

import { unreadableFields } from "./fields";

/** The header's search box (every page) and the global search results page (issues 25, 37). */
export class SearchPage {
  constructor(readonly page: Page) {}

  headerBox() {
    return this.page.getByRole("banner").getByLabel("Search all sessions");
  }

  async searchFromHeader(query: string) {
    await this.headerBox().fill(query);
    await this.headerBox().press("Enter");
    await this.page.waitForURL(/\/search\?/);
  }

  results() {
    return this.page.getByRole("list", { name: "Search results" });
  }

  /** The result groups, one per session, named `project · session`. */
  groups() {
    return this.results().locator(":scope > li");
  }

  group(projectKey: string, sessionRef: string) {
    return this.results().getByRole("listitem", { name: `${projectKey} · ${sessionRef}`, exact: true });
  }

  /** Each hit's link to the viewer (`line 29`, `subagent agent-… · line 3`, `tool result … · called at line 12`). */
  hitLinks() {
    return this.results().getByTestId("search-hit");
  }

  /** "12 sessions, 87 lines; showing lines 1–20." or "No matches." */
  summary() {
    return this.page.getByTestId("search-summary");
  }

  highlights() {
    return this.results().locator("mark");
  }

  /** The note shown while the full-text index is still being filled in the background. */
  indexingNote() {
    return this.page.getByRole("status").filter({ hasText: "Still indexing" });
  }

  /** The global search page's form: the query box and its filters. */
  form() {
    return this.page.getByRole("search").filter({ has: this.page.getByLabel("Search query") });
  }

  /** {@link unreadableFields} of the form (or of `scope`, e.g. the header). */
  async unreadableFields(scope: Locator = this.form()): Promise<string[]> {
    return unreadableFields(scope);
  }
}
