"use client";

import { useEffect, useRef } from "react";

/** Every viewer shortcut, as the `?` help lists them. */
export const VIEWER_KEYS: readonly { keys: string[]; action: string }[] = [
  { keys: ["j", "k"], action: "next / previous line" },
  { keys: ["]", "["], action: "next / previous turn" },
  { keys: ["/"], action: "search this transcript" },
  { keys: ["n", "N"], action: "next / previous search match" },
  { keys: ["g", "G"], action: "first / last line" },
  { keys: ["f"], action: "switch compact / full mode" },
  { keys: ["?"], action: "this help" },
  { keys: ["Esc"], action: "close this help" },
];

/** The keyboard help (`?`): a modal dialog, closed with Escape, the button or a click outside. */
export function KeyHelp({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-label="Keyboard shortcuts"
      onClose={onClose}
      onClick={(event) => event.target === ref.current && onClose()}
      className="m-auto rounded-lg border border-line bg-surface p-0 text-ink shadow-xl backdrop:bg-ink/30"
    >
      <div className="flex flex-col gap-3 p-4">
        <h2 className="text-sm font-semibold">Keyboard shortcuts</h2>
        <table className="text-xs">
          <tbody>
            {VIEWER_KEYS.map((k) => (
              <tr key={k.action}>
                <td className="py-0.5 pr-4 whitespace-nowrap">
                  {k.keys.map((key, i) => (
                    <span key={key}>
                      {i > 0 && " / "}
                      <kbd className="rounded border border-line-strong bg-canvas px-1 font-mono text-[0.7rem]">{key}</kbd>
                    </span>
                  ))}
                </td>
                <td className="py-0.5 text-muted">{k.action}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="text-2xs text-muted">Click a line number to link it, shift-click for a range; hover it for the record&apos;s time.</p>
        <button type="button" onClick={onClose} className="self-end rounded border border-line-strong px-2 py-0.5 text-xs hover:bg-canvas">
          Close
        </button>
      </div>
    </dialog>
  );
}
