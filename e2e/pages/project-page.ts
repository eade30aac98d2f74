import { expect, type Page } from "@playwright/test";

/** The project page: session table (virtualized, server-paginated), sort headers and filter. */
export class ProjectPage {
  constructor(readonly page: Page) {}

  table() {
    return this.page.getByRole("table", { name: "Sessions" });
  }

  /** Rendered data rows (the header row has no cells). */
  dataRows() {
    return this.table().getByRole("row").filter({ has: this.page.getByRole("cell") });
  }

  filter() {
    return this.page.getByLabel("Filter sessions");
  }

  columnHeader(name: string) {
    return this.table().getByRole("columnheader", { name });
  }

  async sortBy(name: string) {
    await this.columnHeader(name).getByRole("button").click();
  }

  /** Matching rows on the server: aria-rowcount minus the header row. */
  async totalRows(): Promise<number> {
    return Number(await this.table().getAttribute("aria-rowcount")) - 1;
  }

  async expectTotalRows(n: number) {
    await expect(this.table()).toHaveAttribute("aria-rowcount", String(n + 1));
  }

  firstRowRef() {
    return this.dataRows().first().getByRole("cell").first();
  }

  row(rowIndex: number) {
    return this.table().locator(`[role="row"][aria-rowindex="${rowIndex}"]`);
  }

  async scrollTableBy(pixels: number) {
    await this.table().evaluate((el, dy) => el.scrollBy(0, dy), pixels);
  }

  async scrollTableToBottom() {
    await this.table().evaluate((el) => el.scrollTo(0, el.scrollHeight));
  }

  /** Opens a session's viewer from its row link. */
  async openSession(sessionRef?: string) {
    const link = sessionRef
      ? this.table().getByRole("link", { name: sessionRef, exact: true })
      : this.dataRows().first().getByRole("link").first();
    await link.click();
    await this.page.waitForURL(/\/sessions\/[^/?#]+/);
  }
}
