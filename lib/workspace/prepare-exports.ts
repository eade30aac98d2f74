/** Chat exports paired with sessions during prepare. */
import fs from "node:fs/promises";
import path from "node:path";

import { listDir } from "@/lib/fs/list-dir";
import { pairExports, readExportCandidates, type UnpairedExport } from "@/lib/workspace/exports";
import { listFilesRecursive } from "@/lib/sources/common/walk-files";
import { sourceFormat } from "@/lib/sources/formats";
import type { PlannedSession } from "@/lib/workspace/prepare-plan";
import { EXPORTS_SUBDIR } from "@/lib/workspace/sessions";

/** What prepare did with chat exports: how many were paired, and every unpaired one with its reason. */
export type ExportsSummary = { found: number; paired: number; unpaired: UnpairedExport[] };

/** Side folders whose `.txt` files are persisted tool outputs, never chat exports. */
const NOT_EXPORT_DIRS = new Set(["tool-results", "subagents", EXPORTS_SUBDIR]);

/**
 * Finds chat exports (`/export` `.txt` files) beside the Claude transcripts (under each Claude
 * root; for a single-file root, its folder) and under each `--exports` path, pairs them with the
 * planned sessions by Workscope ID (seed 003 Q2, first export in path order wins) and adds each
 * pair as an attachment `exports/<name>.txt` of its session, so prepare copies it beside the
 * session. Unpaired exports are returned with a reason, never dropped silently.
 * Mutates `sessions[].attachments`.
 */
export async function attachExports(sessions: PlannedSession[], claudeRoots: readonly string[], exportRoots: readonly string[]): Promise<ExportsSummary> {
  const files = new Set<string>();
  for (const root of claudeRoots) for (const f of await txtFiles(root, false)) files.add(f);
  for (const root of exportRoots) for (const f of await txtFiles(root, true)) files.add(f);
  if (files.size === 0) return { found: 0, paired: 0, unpaired: [] };
  const candidates = await readExportCandidates([...files]);
  const keyed = [];
  for (const s of sessions) {
    const read = sourceFormat(s.source)?.workscopeId;
    const id = read === undefined ? null : await read(s.sourcePath).catch(() => null);
    keyed.push({ key: s, workscopeId: id });
  }
  const { paired, unpaired } = pairExports(keyed, candidates);
  for (const [session, exportPath] of paired) {
    session.attachments.push({ sourcePath: exportPath, relative: path.join(EXPORTS_SUBDIR, path.basename(exportPath)) });
  }
  return { found: candidates.length, paired: new Set(paired.values()).size, unpaired };
}

async function txtFiles(root: string, explicit: boolean): Promise<string[]> {
  const resolved = path.resolve(root);
  const st = await fs.stat(resolved).catch(() => null);
  if (st === null) return [];
  if (st.isFile()) {
    if (explicit) return resolved.endsWith(".txt") ? [resolved] : [];
    // A single transcript as the Claude root: look beside it.
    const dir = path.dirname(resolved);
    return (await listDir(dir, { filter: (n) => n.endsWith(".txt") })).map((n) => path.join(dir, n));
  }
  return (await listFilesRecursive(resolved)).filter((f) => f.endsWith(".txt") && !path.relative(resolved, f).split(path.sep).some((part) => NOT_EXPORT_DIRS.has(part)));
}
