import { useEffect, useEffectEvent } from "react";

export type HotkeyMap = Record<string, (event: KeyboardEvent) => void>;

/** True when the key press belongs to a text field, so single-letter shortcuts must not fire. */
function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT";
}

/**
 * Single-key shortcuts on the window (`event.key`, so "G" means shift+g). Ignored while
 * typing in a field and when Ctrl/Meta/Alt is held, so browser shortcuts keep working.
 */
export function useHotkeys(keys: HotkeyMap): void {
  const onKeyDown = useEffectEvent((event: KeyboardEvent) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (isTypingTarget(event.target)) return;
    const handler = keys[event.key];
    if (!handler) return;
    event.preventDefault();
    handler(event);
  });

  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKeyDown(event);
    window.addEventListener("keydown", listener);
    return () => window.removeEventListener("keydown", listener);
  }, []);
}
