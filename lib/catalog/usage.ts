// get_usage from the catalog (issue 25): the usage buckets every session's row keeps, grouped by lib/usage's report, in O(rows), not O(bytes).

import { TRANSCRIPT_SOURCES } from "@/lib/sources/common/schema";
import { withCatalog } from "@/lib/catalog/catalog";
import { catalogStore } from "@/lib/catalog/catalog-store";
import { ensureProjects } from "@/lib/catalog/ensure";
import { sessionTokenTotals } from "@/lib/catalog/row-facts";
import type { CoreContext } from "@/lib/context";
import { resolveInside } from "@/lib/fs/paths";
import type { ToolInputInvalid } from "@/lib/tools/define-tool";
import { loadPricing } from "@/lib/usage/pricing";
import { usageReport, type SessionUsageEntry } from "@/lib/usage/report";
import type { GetUsageInput, GetUsageResult } from "@/lib/usage/schema";
import type { UsageBucket } from "@/lib/usage/session-usage";
import { loadWorkspace } from "@/lib/workspace/load";
import { localMachine } from "@/lib/workspace/machines";
import { pricingStamp } from "@/lib/workspace/session-usage";
import { pricingOverrideFile } from "@/lib/workspace/sources";
import type { CatalogStore, UsageRow } from "@/lib/catalog/store";

/** Hours a day in any time zone can start before UTC's (UTC+14): a session ending that much before `since` (UTC) has nothing from it on. */
const ZONE_AHEAD_MS = 14 * 3600_000;

/**
 * `get_usage` (issue 28's report) read from the catalog: the same result as reading every
 * session's transcripts (`getUsage` in lib/forensics/__fixtures__/usage-tool, the test oracle),
 * but from the buckets each session's row keeps. Projects whose files moved are brought in step
 * first; rows priced under another price override file are recomputed (once). With `since`,
 * sessions that ended days before it are not read at all.
 * @throws AppError parse_error for a bad price override file; AppError not_found | parse_error from the workspace loader.
 */
export function catalogUsage(ctx: CoreContext, input: GetUsageInput): Promise<GetUsageResult | ToolInputInvalid> {
  return withCatalog(ctx, () => catalogUsageOnce(ctx, input));
}

async function catalogUsageOnce(ctx: CoreContext, input: GetUsageInput): Promise<GetUsageResult | ToolInputInvalid> {
  const ws = await loadWorkspace(ctx);
  if (input.project_key !== undefined && !ws.projects.some((p) => p.projectKey === input.project_key)) {
    return { status: "invalid", errors: [{ field: "project_key", message: `unknown project_key '${input.project_key}'`, hint: "use a project_key from list_projects" }] };
  }
  const pricing = await loadPricing(pricingOverrideFile(ctx.workspaceRoot));
  await ensureProjects(ctx);
  const store = catalogStore(ctx);
  // A bucket without a time is left out of any dated report (lib/usage/report), so is a session without a timed bucket.
  const rows = await store.usageRows({
    sources: TRANSCRIPT_SOURCES,
    project_key: input.project_key,
    source: input.source,
    machine: input.machine,
    sinceMs: input.since !== undefined ? Date.parse(`${input.since}T00:00:00Z`) - ZONE_AHEAD_MS : undefined,
    timedOnly: input.until !== undefined,
  });
  const stamp = pricingStamp(ctx.workspaceRoot);
  const entries: SessionUsageEntry[] = [];
  for (const r of rows) {
    const buckets = r.usage_stamp === stamp && r.usage_buckets !== null ? r.usage_buckets : await repriced(ctx, store, ws, r);
    if (buckets === null) continue;
    entries.push({ project_key: r.project_key, session_ref: r.session_ref, session_id: r.source_session_id, source: r.source, machine: r.machine ?? localMachine(), usage: { buckets: parseBuckets(buckets) } });
  }
  const { rows: reportRows, totals } = usageReport(entries, input);
  return { status: "ok", group_by: input.group_by, timezone: input.timezone ?? "UTC", rows: reportRows, totals, pricing: { source: pricing.source, snapshot_date: pricing.snapshotDate, override: pricing.override } };
}

/** A row priced under another override file: its usage read again (lib/usage caches it) and stored; null when its file is gone. */
async function repriced(ctx: CoreContext, store: CatalogStore, ws: Awaited<ReturnType<typeof loadWorkspace>>, r: UsageRow): Promise<string | null> {
  const project = ws.projects.find((p) => p.projectKey === r.project_key);
  const row = project?.rows.find((x) => x.session_ref === r.session_ref);
  if (!project || !row) return null;
  let filePath: string;
  try {
    filePath = await resolveInside(project.dir, row.session_path);
  } catch {
    return null;
  }
  const facts = await sessionTokenTotals(ctx, { project, row, filePath });
  await store.setUsage(r.id, facts);
  return facts.usage_buckets;
}

function parseBuckets(json: string): UsageBucket[] {
  // JSON has no NaN: an untimed bucket's start was written as null.
  return (JSON.parse(json) as (Omit<UsageBucket, "startMs"> & { startMs: number | null })[]).map((b) => ({ ...b, startMs: b.startMs ?? Number.NaN }));
}
