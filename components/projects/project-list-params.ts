import type { SortOrder } from "@/components/data-table/types";
import type { ProjectOverview } from "@/lib/overview/schema";

/** The home page's sortable columns: project name, sessions, last activity, evidence coverage. */
export const PROJECT_SORT_KEYS = ["name", "sessions", "activity", "coverage"] as const;
export type ProjectSortKey = (typeof PROJECT_SORT_KEYS)[number];

/** The project list's URL state (`?q&sort&order`), so a filtered, sorted list is a shareable link. */
export type ProjectListParams = { q: string; sort: ProjectSortKey; order: SortOrder };

/** Most recently active first, as the overview comes (issue 25). */
export const DEFAULT_PROJECT_LIST_PARAMS: ProjectListParams = { q: "", sort: "activity", order: "desc" };

const isSortKey = (value: string | null): value is ProjectSortKey => PROJECT_SORT_KEYS.includes(value as ProjectSortKey);

/** Lenient parse: an unknown sort key or order in a hand-edited URL falls back to the default. */
export function parseProjectListParams(search: URLSearchParams): ProjectListParams {
  const sort = search.get("sort");
  const order = search.get("order");
  return {
    q: (search.get("q") ?? "").trim(),
    sort: isSortKey(sort) ? sort : DEFAULT_PROJECT_LIST_PARAMS.sort,
    order: order === "asc" || order === "desc" ? order : isSortKey(sort) ? defaultProjectOrder(sort) : DEFAULT_PROJECT_LIST_PARAMS.order,
  };
}

/** First click on a column: names A→Z, numbers, times and coverage largest/newest first. */
export function defaultProjectOrder(key: ProjectSortKey): SortOrder {
  return key === "name" ? "asc" : "desc";
}

/** Evidence coverage as a share of indexed turns; null when there is none to have (no turns, a Control Plane root). */
function coverage(p: ProjectOverview): number | null {
  return p.source_kind === "control-plane" || p.turn_count === 0 ? null : p.turns_with_chain / p.turn_count;
}

function timeOf(iso: string | null): number | null {
  const ms = iso === null ? Number.NaN : Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}

/** The value a column sorts by; null sorts last whatever the order. */
function sortValue(p: ProjectOverview, key: ProjectSortKey): string | number | null {
  switch (key) {
    case "name":
      return p.project_label.toLocaleLowerCase();
    case "sessions":
      return p.session_count;
    case "activity":
      return timeOf(p.last_activity_at);
    case "coverage":
      return coverage(p);
  }
}

/** Whether every word of `q` is in the project's label, path (cwd) or key, ignoring case. */
function matches(p: ProjectOverview, words: readonly string[]): boolean {
  const haystack = `${p.project_label}\n${p.cwd ?? ""}\n${p.project_key}`.toLocaleLowerCase();
  return words.every((w) => haystack.includes(w));
}

/**
 * The projects the list shows: those whose label, path or key holds every word of `params.q`,
 * sorted by `params.sort` in `params.order` (unknown values last; ties by label, then key).
 */
export function visibleProjects(projects: readonly ProjectOverview[], params: ProjectListParams): ProjectOverview[] {
  const words = params.q.toLocaleLowerCase().split(/\s+/).filter(Boolean);
  const shown = words.length === 0 ? [...projects] : projects.filter((p) => matches(p, words));
  const sign = params.order === "asc" ? 1 : -1;
  const keyed = shown.map((p) => ({ p, v: sortValue(p, params.sort) }));
  keyed.sort((a, b) => {
    if (a.v !== b.v) {
      if (a.v === null) return 1;
      if (b.v === null) return -1;
      if (typeof a.v === "string" && typeof b.v === "string") {
        const byText = a.v.localeCompare(b.v);
        if (byText !== 0) return sign * byText;
      } else if (a.v < b.v || a.v > b.v) return sign * (a.v < b.v ? -1 : 1);
    }
    return a.p.project_label.localeCompare(b.p.project_label) || a.p.project_key.localeCompare(b.p.project_key);
  });
  return keyed.map((k) => k.p);
}
