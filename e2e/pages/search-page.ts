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

  /** The global search page's form: the query box and its filters. */
  form() {
    return this.page.getByRole("search").filter({ has: this.page.getByLabel("Search query") });
  }

  /**
   * The fields of `scope` (the form, the header) a reader cannot read whole, by accessible label:
   * an empty input whose placeholder is wider than its box inside the padding, a select whose
   * chosen option (plus its arrow) is, or any field that ends past the screen's right edge.
   * Text widths are measured with the field's own font.
   */
  async unreadableFields(scope = this.form()): Promise<string[]> {
    return scope.locator("input:not([type=hidden]), select").evaluateAll((fields) => {
      const ctx = document.createElement("canvas").getContext("2d")!;
      const arrow = 16;
      return fields.flatMap((el) => {
        const field = el as HTMLInputElement | HTMLSelectElement;
        const style = getComputedStyle(field);
        ctx.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        const text = field instanceof HTMLSelectElement ? (field.selectedOptions[0]?.text ?? "") : field.value === "" ? field.placeholder : "";
        const need = ctx.measureText(text).width + (field instanceof HTMLSelectElement ? arrow : 0);
        const label = field.getAttribute("aria-label") ?? field.name;
        return need > room + 0.5 || field.getBoundingClientRect().right > window.innerWidth + 0.5 ? [`${label} (${Math.round(need)} px of text in ${Math.round(room)} px)`] : [];
      });
    });
  }
}
