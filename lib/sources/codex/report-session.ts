/** prompt-diary's own report-generation sessions recognised in Codex sources. */
import fs from "node:fs/promises";
import path from "node:path";

import { isJsonObject } from "@/lib/sources/common/json-object";
import { parseAwareTimestamp } from "@/lib/sources/common/timestamps";
import { CODEX_LEGACY_SDK_ORIGINATOR } from "@/lib/sources/codex/records";

/** The marker prompt-diary writes into a report workspace's generated `AGENTS.md`. */
export const PROMPT_DIARY_AGENTS_MARKER = "<!-- prompt-diary-generated-language-norm-v1 -->";

const REPORT_SCHEMAS = new Set([1, 2, 3]);

/**
 * The legacy report-session rule (contract §1.8 step 2) for a `codex_python_sdk` session: true
 * only with positive provenance that `cwd` is a prompt-diary report workspace: `cwd` is
 * absolute (never resolved against this process); `<cwd>/metadata.json` is an object with an
 * integer `schema_version` 1, 2 or 3, a `report_date` `YYYY-MM-DD` equal to the folder name and
 * a timezone-aware `prepared_at` no later than the session timestamp; and `<cwd>/AGENTS.md`
 * contains {@link PROMPT_DIARY_AGENTS_MARKER}. Any read or parse failure means false.
 * @param cwd the session_meta `cwd`.
 * @param sessionTimestampMs the session_meta timestamp (top-level, else payload), epoch ms.
 */
export async function isLegacyReportWorkspace(cwd: string, sessionTimestampMs: number): Promise<boolean> {
  if (!path.isAbsolute(cwd)) return false;
  let metadata: unknown;
  let agents: string;
  try {
    metadata = JSON.parse(await fs.readFile(path.join(cwd, "metadata.json"), "utf8"));
    agents = await fs.readFile(path.join(cwd, "AGENTS.md"), "utf8");
  } catch {
    return false;
  }
  if (!isJsonObject(metadata)) return false;
  const { schema_version: schema, report_date: reportDate } = metadata;
  const preparedAt = parseAwareTimestamp(metadata.prepared_at);
  return (
    typeof schema === "number" &&
    REPORT_SCHEMAS.has(schema) &&
    typeof reportDate === "string" &&
    /^\d{4}-\d{2}-\d{2}$/.test(reportDate) &&
    parseAwareTimestamp(`${reportDate}T00:00:00Z`) !== null &&
    reportDate === path.basename(cwd) &&
    preparedAt !== null &&
    preparedAt <= sessionTimestampMs &&
    agents.includes(PROMPT_DIARY_AGENTS_MARKER)
  );
}

/**
 * Resolves the legacy report-session rule over a session's `codex_python_sdk` session_metas:
 * the exclusion reason for the first one whose cwd proves a report workspace, else null.
 */
export async function legacyReportReason(candidates: readonly { cwd: string; timestampMs: number }[]): Promise<string | null> {
  for (const { cwd, timestampMs } of candidates) {
    if (await isLegacyReportWorkspace(cwd, timestampMs)) {
      return `legacy prompt-diary report session (originator "${CODEX_LEGACY_SDK_ORIGINATOR}" in report workspace ${cwd})`;
    }
  }
  return null;
}
