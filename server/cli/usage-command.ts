// `casefile usage`: ccusage-like daily/weekly/monthly/session/model/project reports through the get_usage tool.
import { createCoreContext, stderrLogger } from "@/lib/context";
import { AppError } from "@/lib/errors";
import type { GetUsageResult } from "@/lib/usage/schema";
import { callTool, isToolSuccess, serializeToolResult } from "@/lib/tools/registry";

/** Report names as ccusage spells them, and the `get_usage` group each is. */
const REPORTS: Record<string, string> = { daily: "day", weekly: "week", monthly: "month", session: "session", model: "model", project: "project", source: "source", machine: "machine" };

export type UsageOptions = { since?: string; until?: string; project?: string; source?: string; machine?: string; timezone?: string; json: boolean };

/**
 * `casefile usage [daily|weekly|monthly|session|model|project|source|machine]` (default daily): calls
 * `get_usage` (so the figures are the dashboard's and MCP's) and prints a table, or with `--json`
 * the tool's result JSON. Exit 0, or 2 when the tool rejects the input (the result is printed).
 * @throws AppError invalid_input for an unknown report name.
 */
export async function runUsage(workspace: string, report: string | undefined, options: UsageOptions): Promise<number> {
  const group = REPORTS[report ?? "daily"];
  if (!group) throw new AppError("invalid_input", `unknown usage report '${report}'`, { hint: `use one of ${Object.keys(REPORTS).join(", ")}` });
  const input: Record<string, string> = { group_by: group };
  if (options.since) input.since = options.since;
  if (options.until) input.until = options.until;
  if (options.project) input.project_key = options.project;
  if (options.source) input.source = options.source;
  if (options.machine) input.machine = options.machine;
  if (options.timezone) input.timezone = options.timezone;
  const ctx = createCoreContext(workspace, { log: stderrLogger, oneShot: true });
  const result = await callTool(ctx, "get_usage", input, { door: "cli" });
  if (options.json || !isToolSuccess(result)) {
    process.stdout.write(`${serializeToolResult(result)}\n`);
    return isToolSuccess(result) ? 0 : 2;
  }
  process.stdout.write(`${usageTable(result as unknown as GetUsageResult)}\n`);
  return 0;
}

const n = (v: number) => v.toLocaleString("en-US");
const usd = (v: number | null, partial: boolean) => (v === null ? "unknown" : `$${v.toFixed(2)}${partial ? "+" : ""}`);

/** The report as a plain-text table: one row per key, then the total. */
export function usageTable(r: GetUsageResult): string {
  const t = r.totals;
  // Thinking tokens reported apart from output (Gemini's thoughts): a column only when some are counted.
  const reasoning = t.reasoning_tokens > 0;
  const cells = (x: { input_tokens: number; output_tokens: number; cache_creation_tokens: number; cache_read_tokens: number; reasoning_tokens: number; total_tokens: number }) => [n(x.input_tokens), n(x.output_tokens), n(x.cache_creation_tokens), n(x.cache_read_tokens), ...(reasoning ? [n(x.reasoning_tokens)] : []), n(x.total_tokens)];
  const head = [r.group_by === "session" ? "session" : r.group_by, "models", "input", "output", "cache create", "cache read", ...(reasoning ? ["reasoning"] : []), "total tokens", "cost (USD)"];
  const body = r.rows.map((row) => [row.key + (row.session_id ? ` (${row.session_id})` : ""), row.models.join(", "), ...cells(row), usd(row.cost_usd, row.unpriced_models.length > 0)]);
  body.push(["Total", "", ...cells(t), usd(t.cost_usd, t.unpriced_models.length > 0)]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  const notes = [`Times in ${r.timezone}. Prices: ${r.pricing.source}, snapshot ${r.pricing.snapshot_date}${r.pricing.override ? `, overridden by ${r.pricing.override}` : ""}.`];
  if (t.unpriced_models.length > 0) notes.push(`No price for ${t.unpriced_models.join(", ")}: their cost is unknown and left out ("+").`);
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...body.slice(0, -1).map(line), line(widths.map((w) => "-".repeat(w))), line(body.at(-1)!), "", ...notes].join("\n");
}
