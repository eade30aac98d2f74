import "server-only";

import type { ReadMode, ViewerLinesResult } from "@/lib/session-reader/schema";
import { readViewerLinesTool } from "@/lib/session-reader/tools";
import { invokeToolForUi } from "@/lib/tools/registry";
import { getCoreContext } from "@/server/core";

/**
 * One window of the viewer's lines read with the page (the `read_viewer_lines` tool, door `ui`,
 * the same call the viewer's `/lines` fetch makes), so the session page's first rows arrive in
 * its HTML (issue 13). Lines `start..end` (1-based, inclusive) of the main transcript or subagent
 * `agentId`. Null when the read fails or the range is empty: the viewer then fetches it itself.
 */
export async function getViewerWindowQuery(projectKey: string, sessionRef: string, agentId: string | null, mode: ReadMode, start: number, end: number): Promise<ViewerLinesResult | null> {
  if (end < start) return null;
  try {
    return await invokeToolForUi(getCoreContext(), readViewerLinesTool, { project_key: projectKey, session_ref: sessionRef, agent_id: agentId ?? undefined, start_line: start, end_line: end, mode });
  } catch {
    return null;
  }
}
