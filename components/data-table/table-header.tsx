import type { CSSProperties } from "react";

import type { Column, SortState } from "./types";

type TableHeaderProps<T, K extends string> = {
  columns: readonly Column<T, K>[];
  gridStyle: CSSProperties;
  sort?: SortState<K>;
  onSortChange?: (key: K) => void;
};

function ariaSort(column: { sortKey?: string }, sort?: SortState) {
  if (!column.sortKey) return undefined;
  if (sort?.key !== column.sortKey) return "none" as const;
  return sort.order === "asc" ? ("ascending" as const) : ("descending" as const);
}

/** The sticky header row: sortable columns render a button, and carry aria-sort. */
export function TableHeader<T, K extends string>({ columns, gridStyle, sort, onSortChange }: TableHeaderProps<T, K>) {
  return (
    <div role="rowgroup" className="sticky top-0 z-10 border-b border-line-strong bg-surface">
      <div role="row" aria-rowindex={1} className="grid h-9 items-center" style={gridStyle}>
        {columns.map((column) => {
          const sorted = ariaSort(column, sort);
          const alignRight = column.align === "right";
          return (
            <div
              key={column.id}
              role="columnheader"
              aria-sort={sorted}
              className={`px-3 text-2xs font-semibold tracking-wide text-muted uppercase ${alignRight ? "text-right" : ""}`}
            >
              {column.sortKey && onSortChange ? (
                <button
                  type="button"
                  onClick={() => onSortChange(column.sortKey!)}
                  className={`inline-flex items-center gap-1 uppercase hover:text-ink ${sorted !== "none" ? "text-ink" : ""}`}
                >
                  {column.header}
                  <span aria-hidden className="w-2 text-[0.6rem]">
                    {sorted === "ascending" ? "▲" : sorted === "descending" ? "▼" : ""}
                  </span>
                </button>
              ) : (
                column.header
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
