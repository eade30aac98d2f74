import "server-only";

import { TOOLS } from "@/lib/tools/registry";

/** Every registered tool's name, for the Audit page's tool filter. */
export const listToolNamesQuery = (): string[] => TOOLS.map((t) => t.name).sort();
