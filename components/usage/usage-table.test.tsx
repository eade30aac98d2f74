// @vitest-environment happy-dom
// The usage table's row cap: what a heavy user's Usage page shows of 20,000 sessions.
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import { TABLE_MAX_ROWS, topRows, UsageTable } from "@/components/usage/usage-table";
import type { UsageRow, UsageTotals } from "@/lib/usage/schema";

const row = (key: string, total: number): UsageRow =>
  ({ key, models: ["claude-sonnet-4-5"], unpriced_models: [], input_tokens: total, output_tokens: 0, cache_creation_tokens: 0, cache_read_tokens: 0, reasoning_tokens: 0, total_tokens: total, cost_usd: null });

const TOTALS: UsageTotals = { input_tokens: 0, output_tokens: 0, cache_creation_tokens: 0, cache_creation_1h_tokens: 0, cache_read_tokens: 0, reasoning_tokens: 0, total_tokens: 0, cost_usd: null, unpriced_models: [], requests: 0, models: [] };

afterEach(cleanup);

describe("the usage table's rows", () => {
  it("keeps the report's rows and order when they are few", () => {
    const rows = [row("b", 1), row("a", 9)];
    expect(topRows(rows)).toBe(rows);
  });

  it("shows the rows with the most tokens, most first, when there are more than the cap", () => {
    const rows = Array.from({ length: TABLE_MAX_ROWS + 20 }, (_, i) => row(`s${String(i).padStart(4, "0")}`, (i * 7919) % 1000));
    const shown = topRows(rows);
    expect(shown).toHaveLength(TABLE_MAX_ROWS);
    const least = Math.min(...shown.map((r) => r.total_tokens));
    expect(rows.filter((r) => r.total_tokens > least).every((r) => shown.includes(r))).toBe(true);
    expect(shown.map((r) => r.total_tokens)).toEqual([...shown.map((r) => r.total_tokens)].sort((a, b) => b - a));
    render(<UsageTable rows={topRows(rows, 3)} totals={TOTALS} keyLabel="session" />);
    expect(screen.getAllByTestId("usage-row")).toHaveLength(3);
  });
});
