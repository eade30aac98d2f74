/** Chat exports and the Workscope IDs that pair them with sessions. */
import { readWorkscopeId } from "@/lib/sources/common/workscope";

/** A chat export (`/export` `.txt`) and the Workscope ID it states (null when none). */
export type ExportCandidate = { path: string; workscopeId: string | null };

/** Why an export was not paired. */
export type UnpairedExport = { path: string; workscope_id: string | null; reason: string };

/**
 * Reads the Workscope ID of every export file (seed 003 Q2: first `Workscope ID: …` match).
 * Unreadable files get a null ID. Files are read one at a time, streamed.
 */
export async function readExportCandidates(paths: readonly string[]): Promise<ExportCandidate[]> {
  const out: ExportCandidate[] = [];
  for (const p of [...paths].sort()) {
    let workscopeId: string | null = null;
    try {
      workscopeId = await readWorkscopeId(p);
    } catch {
      workscopeId = null;
    }
    out.push({ path: p, workscopeId });
  }
  return out;
}

/**
 * Pairs sessions with chat exports by Workscope ID, never by file name (seed 003 Q2). Exports
 * are taken in path order; the first export with a session's ID wins ("first match wins"), so
 * each session gets at most one export. Every other export is reported with a reason: no
 * Workscope ID, no session with that ID, or a second export for an already paired session.
 * @param sessions session keys with their Workscope ID (null = none found).
 * @returns session key → export path, and the unpaired exports.
 */
export function pairExports<K>(
  sessions: readonly { key: K; workscopeId: string | null }[],
  exports: readonly ExportCandidate[],
): { paired: Map<K, string>; unpaired: UnpairedExport[] } {
  const byId = new Map<string, K[]>();
  for (const s of sessions) if (s.workscopeId) byId.set(s.workscopeId, [...(byId.get(s.workscopeId) ?? []), s.key]);
  const paired = new Map<K, string>();
  const unpaired: UnpairedExport[] = [];
  for (const e of [...exports].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    if (!e.workscopeId) {
      unpaired.push({ path: e.path, workscope_id: null, reason: "no 'Workscope ID: YYYYMMDD-HHMMSS' in the export" });
      continue;
    }
    const keys = byId.get(e.workscopeId);
    if (!keys) {
      unpaired.push({ path: e.path, workscope_id: e.workscopeId, reason: `no prepared session has Workscope ID ${e.workscopeId}` });
      continue;
    }
    const free = keys.filter((k) => !paired.has(k));
    if (free.length === 0) {
      unpaired.push({ path: e.path, workscope_id: e.workscopeId, reason: `another export with Workscope ID ${e.workscopeId} was paired first` });
      continue;
    }
    for (const k of free) paired.set(k, e.path);
  }
  return { paired, unpaired };
}
