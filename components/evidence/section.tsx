import type { ReactNode } from "react";

/** One titled block of the editor (Trigger, Reactions, …), with an optional action on the right. */
export function Section({ title, help, action, children }: { title: string; help?: string; action?: ReactNode; children: ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-2 border-t border-line pt-3">
      <div className="flex items-baseline justify-between gap-2">
        <h3 className="text-xs font-semibold">{title}</h3>
        {action}
      </div>
      {help && <p className="-mt-1.5 text-2xs text-muted">{help}</p>}
      {children}
    </section>
  );
}

/** One removable item inside a section (an outcome, a reaction, a quoted message). */
export function ItemCard({ title, onRemove, removeLabel, children }: { title: string; onRemove: () => void; removeLabel: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-2 rounded border border-line bg-canvas/60 p-2">
      <div className="flex items-center justify-between">
        <span className="text-2xs font-semibold text-turn-label">{title}</span>
        <button type="button" onClick={onRemove} aria-label={removeLabel} className="rounded px-1.5 text-2xs text-muted hover:bg-danger-soft hover:text-danger">
          Remove
        </button>
      </div>
      {children}
    </div>
  );
}

/** The small "+ Add …" button of a list section. */
export function AddButton({ onClick, children }: { onClick: () => void; children: string }) {
  return (
    <button type="button" onClick={onClick} className="rounded border border-line-strong px-2 py-0.5 text-2xs hover:bg-accent-soft">
      {children}
    </button>
  );
}
