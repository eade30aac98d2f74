"use client";

import type { KeyboardEvent, ReactNode } from "react";

import { useDockedPanel } from "@/components/hooks/use-docked-panel";

/**
 * How a docked panel sits at each width (literal class names, so Tailwind emits them): `width`
 * in the row (the panel from its breakpoint up, a 2.25rem rail below), and `over` when opened
 * below the breakpoint: it then lies over the transcript instead of squeezing it.
 */
const LAYOUTS = {
  /** The evidence panel: 27rem from `xl` (1280 px) up. */
  evidence: {
    query: "(min-width: 80rem)",
    width: "w-9 xl:w-[27rem]",
    over: "max-xl:absolute max-xl:inset-y-0 max-xl:right-0 max-xl:z-20 max-xl:w-[min(27rem,100%)] max-xl:border-l max-xl:border-line max-xl:bg-surface max-xl:shadow-lg",
    below: "xl:hidden",
    above: "max-xl:hidden",
  },
  /** The turn list: 12rem from `md` (768 px), 16rem from `xl`. */
  turns: {
    query: "(min-width: 48rem)",
    width: "w-9 md:w-48 xl:w-64",
    over: "max-md:absolute max-md:inset-y-0 max-md:right-0 max-md:z-20 max-md:w-[min(16rem,100%)] max-md:border-l max-md:border-line max-md:bg-surface max-md:shadow-lg",
    below: "md:hidden",
    above: "max-md:hidden",
  },
} as const;

type DockedPanelProps = {
  /** Which panel (its widths and breakpoint, see {@link LAYOUTS}). */
  layout: keyof typeof LAYOUTS;
  /** Its accessible name, and the rail's label ("Evidence", "Turns"). */
  label: string;
  /** Classes of the scrolling body (padding, gaps). */
  bodyClassName?: string;
  /**
   * The body, or a function of `dismiss`: closes the panel when it lies over the transcript (a
   * narrow screen), so a choice made in it (a turn to scroll to) shows the transcript at once;
   * the screen decides again (a wide one opens it).
   */
  children: ReactNode | ((dismiss: () => void) => ReactNode);
};

/**
 * A side panel of the session page, beside the transcript (whose row must be `relative`): open
 * on wide screens, a labelled rail on narrow ones, and the reader's choice once toggled
 * ({@link useDockedPanel}). The body stays mounted while closed, so its state (an open editor, a
 * scrolled list) survives a toggle.
 */
export function DockedPanel({ layout, label, bodyClassName = "", children }: DockedPanelProps) {
  const at = LAYOUTS[layout];
  const { open, toggle, over, dismiss } = useDockedPanel(at.query);
  // Escape closes a panel lying over the transcript (and goes no further).
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || !over) return;
    event.stopPropagation();
    dismiss();
  };
  const width = open === false ? "w-9" : at.width;
  // Before hydration the screen decides by CSS alone: the rail below the breakpoint, the header
  // and body above. One display utility each (a state's `hidden` never meets a `flex`).
  const rail = open === null ? `flex ${at.below}` : open ? "hidden" : "flex";
  const head = open === null ? `flex ${at.above}` : open ? "flex" : "hidden";
  const body = open === null ? at.above : open ? "" : "hidden";
  return (
    // The rail's width stays in the row: opening a panel over the transcript never reflows it.
    <aside aria-label={label} className={`flex shrink-0 flex-col border-l border-line bg-surface ${width}`}>
      <div className={`flex min-h-0 flex-1 flex-col ${open === true ? at.over : ""}`} onKeyDown={closeOnEscape}>
        <button
          type="button"
          onClick={toggle}
          aria-expanded={open ?? undefined}
          title={`Collapse the ${label.toLowerCase()} panel`}
          className={`h-7 shrink-0 items-center gap-1 border-b border-line px-2.5 text-2xs text-muted hover:bg-canvas ${head}`}
        >
          › Hide {label.toLowerCase()}
        </button>
        <button
          type="button"
          onClick={toggle}
          aria-expanded={open ?? undefined}
          title={`Open the ${label.toLowerCase()} panel`}
          className={`min-h-0 flex-1 flex-col items-center gap-2 py-2 text-2xs text-muted hover:bg-canvas ${rail}`}
        >
          <span aria-hidden>‹</span>
          <span className="[writing-mode:vertical-rl]">{label}</span>
        </button>
        <div className={`min-h-0 flex-1 overflow-auto ${body}`}>
          <div className={bodyClassName}>{typeof children === "function" ? children(dismiss) : children}</div>
        </div>
      </div>
    </aside>
  );
}
