import "server-only";

import { searchSessionsTool } from "@/lib/catalog/tools";
import type { SearchSessionsResult } from "@/lib/catalog/schema";
import { invokeTool } from "@/lib/tools/registry";
import type { ToolInputInvalid } from "@/lib/tools/define-tool";
import { getCoreContext } from "@/server/core";

/**
 * The global search page's results (the `search_sessions` tool, door `ui`): the tool's result,
 * or its `invalid` result for a query or filter the user typed wrong (shown on the page).
 */
export function searchSessionsQuery(input: Record<string, unknown>): Promise<SearchSessionsResult | ToolInputInvalid> {
  return invokeTool(getCoreContext(), searchSessionsTool, input, { door: "ui", client: "ui" });
}
