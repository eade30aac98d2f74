import "server-only";

import { notFound } from "next/navigation";
import { cache } from "react";

import { grepJsonlTool, sessionOverviewTool } from "@/lib/forensics/tools";
import type { GrepJsonlResult, SessionOverviewResult } from "@/lib/forensics/schema";
import { invokeToolForUi } from "@/lib/tools/registry";
import { getCoreContext } from "@/server/core";

/** A session's forensics overview (the `session_overview` tool, door `ui`), or the not-found page. */
export const getSessionOverviewQuery = cache(async (projectKey: string, sessionRef: string): Promise<SessionOverviewResult> => {
  const result = await invokeToolForUi(getCoreContext(), sessionOverviewTool, { project_key: projectKey, session_ref: sessionRef });
  if (result.status !== "ok") notFound();
  return result as SessionOverviewResult;
});

/** One page of a project-wide search (`grep_jsonl` without a session, door `ui`); invalid input (a bad pattern) is returned as is. */
export const searchProjectQuery = cache(async (projectKey: string, pattern: string, offset: number) => {
  const result = await invokeToolForUi(getCoreContext(), grepJsonlTool, { project_key: projectKey, pattern, offset, limit: 100, max_bytes: 2_000_000 });
  return result as GrepJsonlResult | { status: "invalid"; errors: { field: string; message: string; hint: string }[] };
});
