import Link from "next/link";

import { formatCount, formatUsd } from "@/components/format/format";
import { routes } from "@/components/navigation/routes";
import type { UsageRow, UsageTotals } from "@/lib/usage/schema";

/** Rows the usage table shows at most: a heavy user's 20,000 sessions would make a page of megabytes (issue 25). */
export const TABLE_MAX_ROWS = 500;

/** Report rows as they come when at most `max`, else the `max` with the most tokens, most first. */
export function topRows<R extends { total_tokens: number }>(rows: readonly R[], max = TABLE_MAX_ROWS): readonly R[] {
  return rows.length <= max ? rows : [...rows].sort((a, b) => b.total_tokens - a.total_tokens).slice(0, max);
}

/** `get_usage` rows as a table (one row per key) with a totals footer equal to the result's `totals`. */
export function UsageTable({ rows, totals, keyLabel }: { rows: readonly UsageRow[]; totals: UsageTotals; keyLabel: string }) {
  const num = "px-2 py-1 text-right font-mono tabular-nums";
  // Thinking tokens an agent reports apart from output (Gemini's thoughts): a column only when some are counted.
  const reasoning = totals.reasoning_tokens > 0;
  return (
    <table data-testid="usage-table" className="w-full border-collapse text-xs">
      <thead>
        <tr className="border-b border-line text-left text-muted">
          <th className="px-2 py-1 font-medium">{keyLabel}</th>
          <th className="px-2 py-1 font-medium">Models</th>
          <th className="px-2 py-1 text-right font-medium">Input</th>
          <th className="px-2 py-1 text-right font-medium">Output</th>
          <th className="px-2 py-1 text-right font-medium">Cache create</th>
          <th className="px-2 py-1 text-right font-medium">Cache read</th>
          {reasoning && <th className="px-2 py-1 text-right font-medium" title="Thinking tokens reported apart from output (billed as output)">Reasoning</th>}
          <th className="px-2 py-1 text-right font-medium">Total tokens</th>
          <th className="px-2 py-1 text-right font-medium">Cost</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} data-testid="usage-row" data-key={r.key} data-session-id={r.session_id ?? ""} data-total-tokens={r.total_tokens} data-cost-usd={r.cost_usd ?? ""} className="border-b border-line/60">
            <td className="px-2 py-1">
              {r.project_key && r.session_ref ? (
                <Link className="text-accent hover:underline" href={routes.session(r.project_key, r.session_ref)}>
                  {r.key}
                </Link>
              ) : (
                r.key
              )}
            </td>
            <td className="max-w-64 truncate px-2 py-1 text-muted" title={r.models.join(", ")}>
              {r.models.join(", ")}
            </td>
            <td className={num}>{formatCount(r.input_tokens)}</td>
            <td className={num}>{formatCount(r.output_tokens)}</td>
            <td className={num}>{formatCount(r.cache_creation_tokens)}</td>
            <td className={num}>{formatCount(r.cache_read_tokens)}</td>
            {reasoning && <td className={num}>{formatCount(r.reasoning_tokens)}</td>}
            <td className={num}>{formatCount(r.total_tokens)}</td>
            <td className={num} title={r.unpriced_models.length > 0 ? `no price for ${r.unpriced_models.join(", ")}` : undefined}>
              {formatUsd(r.cost_usd, r.unpriced_models.length > 0)}
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr data-testid="usage-total" data-total-tokens={totals.total_tokens} data-cost-usd={totals.cost_usd ?? ""} className="font-medium">
          <td className="px-2 py-1">Total</td>
          <td className="px-2 py-1" />
          <td className={num}>{formatCount(totals.input_tokens)}</td>
          <td className={num}>{formatCount(totals.output_tokens)}</td>
          <td className={num}>{formatCount(totals.cache_creation_tokens)}</td>
          <td className={num}>{formatCount(totals.cache_read_tokens)}</td>
          {reasoning && <td className={num}>{formatCount(totals.reasoning_tokens)}</td>}
          <td className={num}>{formatCount(totals.total_tokens)}</td>
          <td className={num}>{formatUsd(totals.cost_usd, totals.unpriced_models.length > 0)}</td>
        </tr>
      </tfoot>
    </table>
  );
}

/** A one-line usage summary (home page: last 30 days; project page): total tokens and cost, linking to the Usage page. */
export function UsageSummary({ totals, label, href }: { totals: UsageTotals; label: string; href: string }) {
  return (
    <p data-testid="usage-summary" data-total-tokens={totals.total_tokens} data-cost-usd={totals.cost_usd ?? ""} className="text-xs text-muted">
      {label}: <span className="font-mono text-ink">{formatCount(totals.total_tokens)}</span> tokens ·{" "}
      <span className="font-mono text-ink">{formatUsd(totals.cost_usd, totals.unpriced_models.length > 0)}</span>
      {totals.models.length > 0 ? ` · ${totals.models.length} model${totals.models.length === 1 ? "" : "s"}` : ""} ·{" "}
      <Link href={href} className="text-accent hover:underline">
        Usage
      </Link>
    </p>
  );
}
