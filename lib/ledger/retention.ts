// Retention of the audit ledger's blobs: prune by age and by a size cap; ledger lines are never touched.
import fs from "node:fs/promises";
import path from "node:path";

import * as z from "zod";

import { listDir } from "@/lib/fs/list-dir";
import { AppError } from "@/lib/errors";
import type { PrunedRecord } from "@/lib/ledger/blobs";
import type { LedgerPaths } from "@/lib/ledger/paths";

/**
 * `.casefile-config/retention.json` (issue 26): `max_bytes`, a cap on the blobs in `audit/inputs/` enforced
 * after calls (oldest blobs first), and `older_than_days`, the default age of
 * `casefile audit prune`. Both optional; absent means no automatic pruning.
 */
export const retentionSchema = z.object({
  max_bytes: z.number().int().positive().optional(),
  older_than_days: z.number().positive().optional(),
});
export type Retention = z.infer<typeof retentionSchema>;

/**
 * The workspace's retention settings; `{}` when the file is absent.
 * @throws AppError invalid_input naming the field when the file is not valid.
 */
export async function readRetention(paths: LedgerPaths): Promise<Retention> {
  let text: string;
  try {
    text = await fs.readFile(paths.retention, "utf8");
  } catch {
    return {};
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new AppError("invalid_input", `${paths.retention} is not valid JSON`, { hint: 'write {"max_bytes": 100000000, "older_than_days": 30}' });
  }
  const parsed = retentionSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new AppError("invalid_input", `${paths.retention}: ${issue.path.join(".") || "value"}: ${issue.message}`, { hint: "max_bytes: a positive integer; older_than_days: a positive number" });
  }
  return parsed.data;
}

/**
 * Parses an age like `30d`, `12h`, `90m` or `45s` into milliseconds.
 * @throws AppError invalid_input for anything else.
 */
export function parseAge(text: string): number {
  const m = /^(\d+(?:\.\d+)?)([dhms])$/.exec(text.trim());
  if (!m) throw new AppError("invalid_input", `--older-than ${text} is not an age`, { hint: "use a number with d, h, m or s, e.g. 30d" });
  return Number(m[1]) * { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 }[m[2] as "d" | "h" | "m" | "s"];
}

/** What one prune removed: blob count and bytes, and the blobs' total size left. */
export type PruneReport = { removed: number; removed_bytes: number; kept: number; kept_bytes: number };

/**
 * Removes blobs last written or reused more than `olderThanMs` ago, then the oldest ones until
 * the rest fit `maxBytes`; each removal is recorded in `audit/pruned.jsonl` first, so verify and
 * the Audit page show the blob as pruned, never as missing. Ledger lines are never touched.
 * @throws fs errors other than a blob vanishing meanwhile.
 */
export async function pruneBlobs(paths: LedgerPaths, rule: { olderThanMs?: number; maxBytes?: number }, now: Date = new Date()): Promise<PruneReport> {
  const names = await listDir(paths.inputsDir, { filter: (n) => /^[0-9a-f]{64}$/.test(n) });
  const blobs: { name: string; bytes: number; mtimeMs: number }[] = [];
  for (const name of names) {
    const st = await fs.stat(path.join(paths.inputsDir, name)).catch(() => null);
    if (st) blobs.push({ name, bytes: st.size, mtimeMs: st.mtimeMs });
  }
  blobs.sort((a, b) => a.mtimeMs - b.mtimeMs);
  let total = blobs.reduce((sum, b) => sum + b.bytes, 0);
  const doomed: { name: string; bytes: number; reason: string }[] = [];
  for (const b of blobs) {
    if (rule.olderThanMs !== undefined && b.mtimeMs < now.getTime() - rule.olderThanMs) doomed.push({ ...b, reason: "older_than" });
    else if (rule.maxBytes !== undefined && total > rule.maxBytes) doomed.push({ ...b, reason: "max_bytes" });
    else continue;
    total -= b.bytes;
  }
  if (doomed.length > 0) {
    const records = doomed.map((d): PrunedRecord => ({ hash: d.name, bytes: d.bytes, pruned_at: now.toISOString(), reason: d.reason }));
    await fs.appendFile(paths.pruned, records.map((r) => `${JSON.stringify(r)}\n`).join(""));
    for (const d of doomed) await fs.rm(path.join(paths.inputsDir, d.name), { force: true });
  }
  return { removed: doomed.length, removed_bytes: doomed.reduce((s, d) => s + d.bytes, 0), kept: blobs.length - doomed.length, kept_bytes: total };
}
