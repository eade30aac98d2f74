import type { Page } from "@playwright/test";

/** The synthesis page: coverage bar, per-session strip, operator form and work items. */
export class SynthesisPage {
  constructor(readonly page: Page) {}

  goto(projectKey: string) {
    return this.page.goto(`/projects/${encodeURIComponent(projectKey)}/synthesis`);
  }

  /** Covered / indexed turns; its aria-valuetext reads "1/5". */
  coveredMeter() {
    return this.page.getByRole("meter", { name: "Turns covered" });
  }

  completeness() {
    return this.page.getByRole("status", { name: "Completeness" });
  }

  /** A legend entry of the coverage bar, named "<state label>: <count>" (e.g. "excluded: 1"). */
  legendEntry(label: string, count: number) {
    return this.page.getByRole("list", { name: "Turns by state" }).getByRole("listitem", { name: `${label}: ${count}`, exact: true });
  }

  /** A strip cell by turn (`S0001/T0003`); its aria-label is "<turn>: <state>[ (<ref>)]". */
  cell(turnKey: string) {
    return this.page.getByRole("list", { name: "Sessions" }).locator(`[aria-label^="${turnKey}: "]`);
  }

  form() {
    return this.page.getByRole("form", { name: "Record an evidence gap or exclusion" });
  }

  /** A form input by its exact label: "Kind", "Title", "Reason", "Confidence". */
  field(label: "Kind" | "Title" | "Reason" | "Confidence") {
    return this.form().getByLabel(label, { exact: true });
  }

  /** A selected turn in the form (a link to it in the viewer; its errors are its description). */
  selectedTurn(turnKey: string) {
    return this.form().getByRole("list", { name: "Selected turns" }).getByRole("link", { name: turnKey, exact: true });
  }

  async create() {
    await this.form().getByRole("button", { name: /^Create / }).click();
  }

  workItem(ref: string) {
    return this.page.getByRole("article", { name: `Work item ${ref}` });
  }
}
