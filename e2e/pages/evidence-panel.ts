import { expect, type Page } from "@playwright/test";

/** The evidence panel beside the viewer, and its chain editor. */
export class EvidencePanel {
  constructor(readonly page: Page) {}

  panel() {
    return this.page.getByRole("complementary", { name: "Evidence" });
  }

  turn(turnRef: string) {
    return this.panel().getByRole("listitem", { name: `Turn ${turnRef}` });
  }

  /** Expands a turn (idempotent) so its chain, or "Create chain", shows. */
  async expandTurn(turnRef: string) {
    const toggle = this.turn(turnRef).getByRole("button", { expanded: false });
    if (await toggle.isVisible()) await toggle.click();
    await expect(this.turn(turnRef).getByRole("button", { expanded: true })).toBeVisible();
  }

  async openEditor(turnRef: string, action: "Create chain" | "Edit chain") {
    await this.expandTurn(turnRef);
    await this.turn(turnRef).getByRole("button", { name: action }).click();
    await expect(this.editor()).toBeVisible();
  }

  editor() {
    return this.page.getByRole("form", { name: /Evidence chain editor/ });
  }

  /** An editor input by its exact label: "Trigger summary", "Outcome 1 citation 1". */
  field(label: string) {
    return this.editor().getByLabel(label, { exact: true });
  }

  button(name: string | RegExp) {
    return this.editor().getByRole("button", { name, exact: typeof name === "string" });
  }

  citeButton() {
    return this.editor().getByRole("button", { name: /^Cite L\d+/ });
  }

  async save() {
    await this.editor().getByRole("button", { name: /^Save (chain|changes)$/ }).click();
  }

  /** Adds a citation to a list and types it: `label` is the owner, e.g. "Outcome 1". */
  async addCitation(owner: string, lines: string, index = 1) {
    await this.button(`+ Add citation to ${owner}`).click();
    await this.field(`${owner} citation ${index}`).fill(lines);
  }

  chainView(turnRef: string) {
    return this.turn(turnRef).getByTestId("chain-view");
  }
}
