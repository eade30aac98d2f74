import type { Page } from "@playwright/test";

export class HomePage {
  constructor(readonly page: Page) {}

  goto() {
    return this.page.goto("/");
  }

  heading() {
    return this.page.getByRole("heading", { name: "Projects", level: 1 });
  }

  projectLink(label: string) {
    return this.page.getByRole("link", { name: label, exact: true });
  }

  /** The project list's filter box (by name or path; `?q=`). */
  filter() {
    return this.page.getByLabel("Filter projects");
  }

  /** A column header of the project list; sortable ones hold a button (`?sort&order`). */
  columnHeader(name: string) {
    return this.page.getByRole("table", { name: "Projects" }).getByRole("columnheader", { name });
  }

  async openProject(label: string) {
    await this.projectLink(label).click();
    await this.page.waitForURL(/\/projects\/[^/]+$/);
  }
}
