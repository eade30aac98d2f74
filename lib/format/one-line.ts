/** Text on one line, cut to a length, for quotes and previews. */
/**
 * `text` on one line: every run of whitespace one space, trimmed, cut to at most `max`
 * characters (UTF-16 units) with a trailing `…` when longer. Used for quotes and previews.
 */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** {@link oneLine}, or null when `text` is null or blank (a preview with nothing to show). */
export function previewLine(text: string | null, max: number): string | null {
  if (text === null) return null;
  const flat = oneLine(text, max);
  return flat === "" ? null : flat;
}
