"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { type CSSProperties, memo, type ReactNode, useMemo, useRef } from "react";

import { TableHeader } from "./table-header";
import type { Column, SortState } from "./types";

const ROW_HEIGHT = 36;
/**
 * The viewport the server renders rows for, before the table is measured: rows that came with
 * the data render in the HTML (issue 13: the session list's first rows without waiting for
 * hydration), and the client's first render uses the same rect, so hydration matches.
 */
const INITIAL_RECT = { width: 1280, height: 900 };
const HEADER_HEIGHT = 36;
/** Rows, not pixels (house style §3.10). */
const OVERSCAN = 12;
/** Fetch the next page when the last rendered row is this close to the end of what is loaded. */
const NEAR_END_ROWS = 20;

type VirtualTableProps<T, K extends string> = {
  label: string;
  columns: readonly Column<T, K>[];
  rows: readonly T[];
  /** Rows matching on the server (all pages), for aria-rowcount. */
  totalRows: number;
  getRowId: (row: T) => string;
  sort?: SortState<K>;
  onSortChange?: (key: K) => void;
  onRowClick?: (row: T) => void;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
  /** Shown under the header instead of rows when there are none. */
  empty?: ReactNode;
  /** Rows shown are stale while a new sort or filter loads. */
  busy?: boolean;
};

/** The least width a column takes: its fixed width, or the minimum of a `minmax(min, …)`; `fr`/`auto` count as 4rem. */
function minColumnWidth(width: string): string {
  const min = /^minmax\(\s*([^,]+?)\s*,/.exec(width)?.[1] ?? width;
  return /^\d+(\.\d+)?(rem|px|em)$/.test(min) ? min : "4rem";
}

/** The sum of the columns' least widths, as a CSS length. */
export function minTableWidth(columns: readonly { width: string }[]): string {
  return `calc(${columns.map((c) => minColumnWidth(c.width)).join(" + ")})`;
}

/** A generic server-paginated, virtualized table. The virtualizer only positions rows. */
export function VirtualTable<T, K extends string>(props: VirtualTableProps<T, K>) {
  const { columns, rows, getRowId, hasNextPage, isFetchingNextPage, fetchNextPage } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  // The grid never narrows below its columns' minimum widths: a narrow window scrolls the table
  // sideways instead of clipping its columns (issue 29, 480 px).
  const gridStyle = useMemo<CSSProperties>(() => ({ gridTemplateColumns: columns.map((c) => c.width).join(" "), minWidth: minTableWidth(columns) }), [columns]);

  // eslint-disable-next-line react-hooks/incompatible-library -- rows read virtualizer output during render by design; nothing here is memoized by the compiler
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => getRowId(rows[index]!), // measurements follow the row, not the slot
    overscan: OVERSCAN,
    scrollMargin: HEADER_HEIGHT,
    initialRect: INITIAL_RECT,
    onChange: (instance) => {
      const last = instance.getVirtualItems().at(-1);
      if (last && last.index >= rows.length - NEAR_END_ROWS && hasNextPage && !isFetchingNextPage) void fetchNextPage();
    },
  });

  return (
    <div
      ref={scrollRef}
      role="table"
      aria-label={props.label}
      aria-rowcount={props.totalRows + 1}
      aria-busy={props.busy || undefined}
      className="relative h-full min-h-0 overflow-auto rounded-md border border-line bg-surface aria-busy:opacity-70"
    >
      <TableHeader columns={columns} gridStyle={gridStyle} sort={props.sort} onSortChange={props.onSortChange} />
      {rows.length === 0 && props.empty}
      <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: "relative", minWidth: gridStyle.minWidth }}>
        {virtualizer.getVirtualItems().map((item) => (
          <MemoRow
            key={item.key}
            row={rows[item.index]!}
            index={item.index}
            top={item.start - HEADER_HEIGHT}
            columns={columns}
            gridStyle={gridStyle}
            onRowClick={props.onRowClick}
          />
        ))}
      </div>
      {isFetchingNextPage && <p className="px-3 py-2 text-xs text-muted">Loading more…</p>}
    </div>
  );
}

type RowProps<T, K extends string> = {
  row: T;
  index: number;
  top: number;
  columns: readonly Column<T, K>[];
  gridStyle: CSSProperties;
  onRowClick?: (row: T) => void;
};

function Row<T, K extends string>({ row, index, top, columns, gridStyle, onRowClick }: RowProps<T, K>) {
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      data-index={index}
      onClick={
        onRowClick
          ? (event) => {
              // Links and buttons inside the row handle their own clicks.
              if (!(event.target as HTMLElement).closest("a, button")) onRowClick(row);
            }
          : undefined
      }
      className={`absolute inset-x-0 grid items-center border-b border-line/70 hover:bg-accent-soft/60 ${onRowClick ? "cursor-pointer" : ""}`}
      style={{ ...gridStyle, height: ROW_HEIGHT, transform: `translateY(${top}px)` }}
    >
      {columns.map((column) => (
        <div
          key={column.id}
          role="cell"
          className={`min-w-0 truncate px-3 ${column.align === "right" ? "text-right tabular-nums" : ""}`}
        >
          {column.cell(row)}
        </div>
      ))}
    </div>
  );
}

// memo() erases generics; the cast restores them so call sites stay type-checked.
const MemoRow = memo(Row) as typeof Row;
