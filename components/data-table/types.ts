import type { ReactNode } from "react";

export type SortOrder = "asc" | "desc";
export type SortState<K extends string = string> = { key: K; order: SortOrder };

/** A column of a VirtualTable. Define column lists as module-level constants. */
export type Column<T, K extends string = string> = {
  id: string;
  header: string;
  /** One CSS grid track, e.g. "6rem" or "minmax(12rem, 1fr)". */
  width: string;
  align?: "left" | "right";
  /** Server-side sort key; columns without one are not sortable. */
  sortKey?: K;
  cell: (row: T) => ReactNode;
};
