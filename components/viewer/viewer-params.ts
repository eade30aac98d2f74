import { useSearchParams } from "next/navigation";
import { useCallback, useState } from "react";

import { READ_MODES, RECORD_GROUPS, type ReadMode, type RecordGroup } from "@/lib/session-reader/schema";

/** The groups a reader may hide (the conversation itself always shows). */
export const HIDEABLE_GROUPS = ["progress", "snapshot", "system"] as const satisfies readonly RecordGroup[];
export type HideableGroup = (typeof HIDEABLE_GROUPS)[number];

/** The viewer state a link shares: `?mode=full&hide=progress,system` (issue 12 item 5). */
export type ViewerParams = { mode: ReadMode; hidden: ReadonlySet<RecordGroup> };

/** Reads the shared view from search params; unknown values fall back to compact, nothing hidden. */
export function parseViewerParams(search: URLSearchParams): ViewerParams {
  const mode = search.get("mode");
  const hide = (search.get("hide") ?? "").split(",").filter((g): g is HideableGroup => (HIDEABLE_GROUPS as readonly string[]).includes(g));
  return { mode: (READ_MODES as readonly string[]).includes(mode ?? "") ? (mode as ReadMode) : "compact", hidden: new Set(hide) };
}

/** The search string for a view, keeping every other parameter (`agent`, a search box's `q`, …). */
export function formatViewerSearch(current: URLSearchParams, params: ViewerParams): string {
  const next = new URLSearchParams(current);
  if (params.mode === "compact") next.delete("mode");
  else next.set("mode", params.mode);
  const hide = RECORD_GROUPS.filter((g) => params.hidden.has(g));
  if (hide.length) next.set("hide", hide.join(","));
  else next.delete("hide");
  const text = next.toString();
  return text ? `?${text}` : "";
}

/**
 * The view mode and record filters, kept in the URL so a copied link opens the same view: read
 * from the URL when the viewer opens, held in state (a toggle answers at once), and written back
 * with `history.replaceState` (no history entry, no server round trip), keeping the `#L…`
 * fragment and every other parameter.
 */
export function useViewerParams(): [ViewerParams, (next: ViewerParams) => void] {
  const search = useSearchParams();
  const [params, setParams] = useState(() => parseViewerParams(new URLSearchParams(search.toString())));
  const write = useCallback((next: ViewerParams) => {
    setParams(next);
    const url = `${window.location.pathname}${formatViewerSearch(new URLSearchParams(window.location.search), next)}${window.location.hash}`;
    window.history.replaceState(null, "", url);
  }, []);
  return [params, write];
}
