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

  async openProject(label: string) {
    await this.projectLink(label).click();
    await this.page.waitForURL(/\/projects\/[^/]+$/);
  }
}
