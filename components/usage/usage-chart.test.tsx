// @vitest-environment happy-dom
// The Usage chart's bars: stacked by model, or by machine when the table is by machine (issue 39).
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import { UsageChart, usageSeries } from "@/components/usage/usage-chart";
import type { UsageRow } from "@/lib/usage/schema";

const period = (key: string, byModel: Record<string, number>): UsageRow => {
  const total = Object.values(byModel).reduce((a, b) => a + b, 0);
  return {
    key,
    models: Object.keys(byModel),
    unpriced_models: [],
    input_tokens: total,
    output_tokens: 0,
    cache_creation_tokens: 0,
    cache_read_tokens: 0,
    reasoning_tokens: 0,
    total_tokens: total,
    cost_usd: null,
    by_model: Object.entries(byModel).map(([model, total_tokens]) => ({ model, total_tokens, cost_usd: null })),
  };
};

// Two days; alpha used sonnet on both, beta opus on the second only.
const ALL = [period("2026-05-01", { sonnet: 10 }), period("2026-05-02", { sonnet: 5, opus: 7 })];
const BY_MACHINE = [
  { machine: "beta", rows: [period("2026-05-02", { opus: 7 })] },
  { machine: "alpha", rows: [period("2026-05-01", { sonnet: 10 }), period("2026-05-02", { sonnet: 5 })] },
];

afterEach(cleanup);

describe("usageSeries", () => {
  it("stacks each period by model", () => {
    expect(usageSeries(ALL)).toEqual({
      stackedBy: "model",
      names: ["opus", "sonnet"],
      data: [
        { key: "2026-05-01", sonnet: 10 },
        { key: "2026-05-02", sonnet: 5, opus: 7 },
      ],
      total: 22,
    });
  });

  it("stacks each period by machine when given each machine's periods: the same total", () => {
    expect(usageSeries(ALL, BY_MACHINE)).toEqual({
      stackedBy: "machine",
      names: ["alpha", "beta"],
      data: [
        { key: "2026-05-01", alpha: 10 },
        { key: "2026-05-02", alpha: 5, beta: 7 },
      ],
      total: 22,
    });
  });
});

describe("UsageChart", () => {
  it("says what its bars stack by", () => {
    const { unmount } = render(<UsageChart rows={ALL} />);
    expect(screen.getByRole("figure", { name: "Tokens over time by model" }).textContent).toContain("stacked by model");
    unmount();
    render(<UsageChart rows={ALL} byMachine={BY_MACHINE} />);
    const figure = screen.getByRole("figure", { name: "Tokens over time by machine" });
    expect(figure.textContent).toContain("Tokens per period, stacked by machine");
    expect([figure.getAttribute("data-stacked-by"), figure.getAttribute("data-total-tokens")]).toEqual(["machine", "22"]);
  });
});
