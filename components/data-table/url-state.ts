/**
 * Writes `patch` into the page's query string (an empty value removes its key), keeping the rest
 * of the URL. Native history calls are integrated with the App Router: `useSearchParams` updates
 * without a server round trip. `push` for a choice Back should undo (a sort), `replace` for
 * typing (a filter).
 */
export function writeSearchParams(patch: Readonly<Record<string, string>>, mode: "push" | "replace"): void {
  const params = new URLSearchParams(window.location.search);
  for (const [key, value] of Object.entries(patch)) {
    if (value) params.set(key, value);
    else params.delete(key);
  }
  const query = params.toString();
  const url = `${window.location.pathname}${query ? `?${query}` : ""}${window.location.hash}`;
  if (mode === "push") window.history.pushState(null, "", url);
  else window.history.replaceState(null, "", url);
}
