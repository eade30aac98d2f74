// Usage shapes shared by the core, the tool and the UI (client-safe: types and the get_usage input schema).
import { TRANSCRIPT_SOURCES } from "@/lib/sources/common/schema";
import * as z from "zod";

import { calendarDate } from "@/lib/tools/input-fields";

/**
 * Tokens by kind and their cost. `input_tokens` is input not read from cache (Codex's
 * `input_tokens - cached_input_tokens`); `cache_creation_tokens` includes the 1-hour writes
 * (`cache_creation_1h_tokens`); `reasoning_tokens` are thinking tokens an agent reports apart
 * from its output (Gemini's `thoughts`): billed as output, not in `output_tokens`; `total_tokens`
 * is the sum of input, output, reasoning, cache creation and cache read (ccusage's `totalTokens`). `cost_usd` is the priced part in USD, null when nothing
 * could be priced; `unpriced_models` lists models without a price (their cost is unknown,
 * never 0), so a cost with models in it is a lower bound.
 */
export type UsageTotals = {
  input_tokens: number;
  output_tokens: number;
  cache_creation_tokens: number;
  cache_creation_1h_tokens: number;
  cache_read_tokens: number;
  reasoning_tokens: number;
  total_tokens: number;
  cost_usd: number | null;
  unpriced_models: string[];
  /** Model requests counted (one per Claude message id + request id, one per Codex token_count increase). */
  requests: number;
  models: string[];
};

export const USAGE_GROUPS = ["day", "week", "month", "model", "project", "source", "machine", "session"] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** `get_usage` input (issue 28). Dates are calendar days in `timezone` (default UTC), inclusive. */
export const getUsageInputSchema = z.object({
  group_by: z.enum(USAGE_GROUPS).describe("day, week (starting Monday), month, model, project, source (the agent), machine (where the sessions came from) or session"),
  since: calendarDate().optional().describe("First day counted (YYYY-MM-DD in timezone)."),
  until: calendarDate().optional().describe("Last day counted (YYYY-MM-DD in timezone)."),
  project_key: z.string().min(1, "project_key must be a non-empty string").optional().describe("Only this project."),
  source: z.enum(TRANSCRIPT_SOURCES).optional().describe("Only this transcript source."),
  machine: z.string().trim().min(1, "machine must be a non-empty string").max(64).optional().describe("Only sessions from this machine (issue 39: a session's machine, as list_sessions shows it)."),
  timezone: z.string().refine(validTimeZone, "timezone must be an IANA time zone such as UTC or Europe/Vilnius").optional().describe("IANA time zone for days, weeks and months (default UTC)."),
});
export type GetUsageInput = z.output<typeof getUsageInputSchema>;

/** One row of a usage report: a period, model, project or session, with its tokens and cost. */
export type UsageRow = {
  /** The group's key: `YYYY-MM-DD` (day; week: its Monday), `YYYY-MM`, the model, the project key, the source, the machine, or `<project_key>/<session_ref>`. */
  key: string;
  input_tokens: number;
  output_tokens: number;
  cache_creation_tokens: number;
  cache_read_tokens: number;
  reasoning_tokens: number;
  total_tokens: number;
  cost_usd: number | null;
  unpriced_models: string[];
  models: string[];
  /** Session rows only. */
  session_id?: string;
  project_key?: string;
  session_ref?: string;
  source?: string;
  machine?: string;
  /** Period rows (day, week, month) only: tokens and cost per model in that period, models sorted. */
  by_model?: { model: string; total_tokens: number; cost_usd: number | null }[];
};

/** The `get_usage` result: rows sorted by key, their totals, and the prices used. */
export type GetUsageResult = {
  status: "ok";
  group_by: GetUsageInput["group_by"];
  timezone: string;
  rows: UsageRow[];
  totals: UsageTotals;
  pricing: { source: string; snapshot_date: string; override: string | null };
};

