import type { Page } from "@playwright/test";

/** The session Analysis page (token chart, resets, reads) and the Chat export page. */
export class AnalysisPage {
  constructor(readonly page: Page) {}

  chart() {
    return this.page.getByTestId("token-chart");
  }

  resetMarkers() {
    return this.page.getByTestId("reset-marker");
  }

  resetMarker(line: number) {
    return this.page.locator(`[data-testid="reset-marker"][data-line="${line}"]`);
  }

  resetsTable() {
    return this.page.getByRole("table", { name: "Context resets" });
  }

  readsTable() {
    return this.page.getByRole("table", { name: "File reads" });
  }

  exportPane() {
    return this.page.getByTestId("export-pane");
  }

  sessionViews() {
    return this.page.getByRole("navigation", { name: "Session views" });
  }
}
