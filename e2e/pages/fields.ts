import type { Locator } from "@playwright/test";

/**
 * The fields of `scope` a reader cannot read whole, by accessible label (issue 29, 480 px): an
 * empty input whose placeholder is wider than its box inside the padding, a select whose chosen
 * option (plus its arrow) is, or any field that ends past the screen's right edge. Text widths
 * are measured with the field's own font.
 */
export async function unreadableFields(scope: Locator): Promise<string[]> {
  return scope.locator("input:not([type=hidden]):not([type=checkbox]):not([type=radio]), select").evaluateAll((fields) => {
    const ctx = document.createElement("canvas").getContext("2d")!;
    const arrow = 16;
    return fields.flatMap((el) => {
      const field = el as HTMLInputElement | HTMLSelectElement;
      if (field.getClientRects().length === 0) return []; // not shown
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
