import "server-only";

import { TOOLS } from "@/lib/tools/registry";

/** Every registered tool's name, for the Audit page's tool filter. */
export const listToolNamesQuery = (): string[] => TOOLS.map((t) => t.name).sort();

/** Names of the registered tools that never write (MCP `readOnlyHint`): the dashboard's own reads the Audit page hides by default. */
export const listReadOnlyToolNamesQuery = (): string[] => TOOLS.filter((t) => t.readOnly).map((t) => t.name).sort();
