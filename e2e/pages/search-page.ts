import type { Page } from "@playwright/test";

/** The header's search box (every page) and the global search results page (issue 25). */
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

  hitLinks() {
    return this.results().getByRole("link");
  }

  highlights() {
    return this.results().locator("mark");
  }
}
