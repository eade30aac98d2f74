import { fieldId } from "./validation";

/** The nearest ancestor that scrolls its own content (the evidence panel's list). */
function scrollParent(el: HTMLElement): HTMLElement | null {
  for (let node = el.parentElement; node; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node);
    if ((overflowY === "auto" || overflowY === "scroll") && node.scrollHeight > node.clientHeight) return node;
  }
  return null;
}

/**
 * Takes the reviewer to the field an error names (nothing for paths no input owns) without
 * scrolling the page shell: a plain `focus()` scrolls every ancestor, including the
 * overflow-hidden layout, which pushed the header away and left a blank band. Only the
 * panel's own scroller moves, just enough to show the field below the sticky header.
 */
export function focusField(path: string | undefined): void {
  const el = path ? document.getElementById(fieldId(path)) : null;
  if (!el) return;
  el.focus({ preventScroll: true });
  const scroller = scrollParent(el);
  if (!scroller) return;
  const box = el.getBoundingClientRect();
  const view = scroller.getBoundingClientRect();
  const margin = view.height / 3; // clear of the sticky editor header
  if (box.top < view.top + margin || box.bottom > view.bottom - 48) scroller.scrollTop += box.top - view.top - margin;
}
