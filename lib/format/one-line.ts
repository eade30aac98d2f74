/** Text on one line, cut to a length, for quotes and previews. */
import { escapeControls, stripTerminal } from "@/lib/format/display-text";

/**
 * `text` on one line as it may be shown anywhere: terminal sequences stripped, every run of
 * whitespace one space, trimmed, control and bidi characters as visible escapes (`␛`, `\u202E`;
 * see lib/format/display-text), cut to at most `max` characters (UTF-16 units) with a trailing
 * `…` when longer (never inside an escape). Used for quotes, previews, headlines and banners.
 */
export function oneLine(text: string, max: number): string {
  const flat = escapeControls(stripTerminal(text).replace(/\s+/g, " ").trim());
  if (flat.length <= max) return flat;
  let cut = max - 1;
  // An escape (`\u202E`) across the cut goes whole.
  for (const m of flat.slice(Math.max(0, cut - 5), cut + 5).matchAll(/\\u[0-9A-F]{4}/g)) {
    const start = Math.max(0, cut - 5) + m.index;
    if (start < cut && start + 6 > cut) cut = start;
  }
  return `${flat.slice(0, cut)}…`;
}

/** {@link oneLine}, or null when `text` is null or blank (a preview with nothing to show). */
export function previewLine(text: string | null, max: number): string | null {
  if (text === null) return null;
  const flat = oneLine(text, max);
  return flat === "" ? null : flat;
}
