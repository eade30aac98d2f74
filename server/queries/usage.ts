import "server-only";

import { getUsageTool } from "@/lib/catalog/tools";
import type { GetUsageInput, GetUsageResult } from "@/lib/usage/schema";
import { invokeToolForUi } from "@/lib/tools/registry";
import { getCoreContext } from "@/server/core";

/** `get_usage` for the dashboard (the same registered tool every door calls); null when the input was rejected. */
export async function getUsageQuery(input: GetUsageInput): Promise<GetUsageResult | null> {
  const result = await invokeToolForUi(getCoreContext(), getUsageTool, input);
  return result.status === "ok" ? (result as GetUsageResult) : null;
}

/** The calendar day `days` before today in UTC (`YYYY-MM-DD`): the home page's last-30-days window starts there. */
export function daysAgo(days: number, now = new Date()): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);
}
