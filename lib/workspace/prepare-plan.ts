import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import path from "node:path";

import { analyzeClaudeTranscript } from "@/lib/sources/claude-code/analyze";
import { discoverClaudeSessions } from "@/lib/sources/claude-code/discover";
import { deriveProjectIdentity } from "@/lib/sources/common/project-key";
import type { ReportWindow } from "@/lib/sources/common/window";
import type { IndexTurn, SourceName } from "@/lib/workspace/schema";

/** One selected root session, before refs are assigned. */
export type PlannedSession = {
  source: SourceName;
  sourceSessionId: string;
  sourcePath: string;
  fileName: string;
  projectKey: string;
  projectLabel: string;
  lineCount: number;
  turns: Omit<IndexTurn, "turn_ref">[];
  /** Attached files (subagents, tool-results), relative to the session's own folder. */
  attachments: { sourcePath: string; relative: string }[];
};

export type SkippedFile = { path: string; reason: string };

export type PlanProgress = (done: number, total: number, label: string) => void;

/**
 * Discovers and analyses every Claude Code source, applies selection (contract §1.8:
 * sidechain exclusion, the window, own-workspace exclusion, dedup by session id) and
 * returns the sessions to write plus every skipped file with its reason. Conflicting
 * duplicates are skipped, naming both paths, instead of aborting the whole run.
 */
export async function planSources(
  claudeRoots: string[],
  window: ReportWindow,
  workspaceRoot: string,
  onProgress?: PlanProgress,
): Promise<{ sessions: PlannedSession[]; skipped: SkippedFile[] }> {
  const skipped: SkippedFile[] = [];
  const candidates = new Map<string, { sessionId: string; subagents: string[]; toolResults: string[] }>();
  for (const root of claudeRoots) {
    const found = await discoverClaudeSessions(path.resolve(root));
    skipped.push(...found.skipped);
    for (const c of found.candidates) {
      if (!candidates.has(c.path)) candidates.set(c.path, { sessionId: c.sessionId, subagents: c.subagents, toolResults: c.toolResults });
    }
  }
  const ordered = [...candidates.keys()].sort();
  const selected: PlannedSession[] = [];
  let done = 0;
  for (const sourcePath of ordered) {
    const c = candidates.get(sourcePath)!;
    onProgress?.(done, ordered.length, path.basename(sourcePath));
    done += 1;
    const analysis = await analyzeClaudeTranscript(sourcePath, window);
    if (analysis.isSidechain) {
      skipped.push({ path: sourcePath, reason: "subagent transcript (isSidechain records) with no parent session found" });
      continue;
    }
    if (analysis.turns.length === 0) {
      skipped.push({ path: sourcePath, reason: window ? "no human trigger inside the report window" : "no human trigger (no user turn to index)" });
      continue;
    }
    const identity = await deriveProjectIdentity(analysis.projectRoot, "claude-code", c.sessionId);
    if (!identity.isUnknown && isInside(identity.canonicalRoot, workspaceRoot)) {
      skipped.push({ path: sourcePath, reason: "session ran inside the Casefile workspace itself" });
      continue;
    }
    const sessionDir = path.join(path.dirname(sourcePath), c.sessionId);
    selected.push({
      source: "claude-code",
      sourceSessionId: c.sessionId,
      sourcePath,
      fileName: path.basename(sourcePath),
      projectKey: identity.projectKey,
      projectLabel: identity.projectLabel,
      lineCount: analysis.lineCount,
      turns: analysis.turns.map((t) => ({ turn_start_line: t.turn_start_line, turn_end_line: t.turn_end_line })),
      attachments: [
        ...c.subagents.map((p) => ({ sourcePath: p, relative: path.join("subagents", path.basename(p)) })),
        ...c.toolResults.map((p) => ({ sourcePath: p, relative: isInside(p, sessionDir) ? path.relative(sessionDir, p) : path.join("tool-results", path.basename(p)) })),
      ],
    });
  }
  onProgress?.(ordered.length, ordered.length, "analysed");
  return { sessions: await dedupe(selected, skipped), skipped };
}

async function dedupe(sessions: PlannedSession[], skipped: SkippedFile[]): Promise<PlannedSession[]> {
  const groups = new Map<string, PlannedSession[]>();
  for (const s of sessions) {
    const key = `${s.source}/${s.sourceSessionId}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  const kept: PlannedSession[] = [];
  for (const [key, group] of groups) {
    const first = group[0]!;
    if (group.length === 1) {
      kept.push(first);
      continue;
    }
    const firstHash = await sha256File(first.sourcePath);
    const conflicts: PlannedSession[] = [];
    for (const other of group.slice(1)) {
      const same = other.projectKey === first.projectKey && (await sha256File(other.sourcePath)) === firstHash;
      if (same) skipped.push({ path: other.sourcePath, reason: `identical duplicate of ${first.sourcePath}` });
      else conflicts.push(other);
    }
    if (conflicts.length === 0) {
      kept.push(first);
      continue;
    }
    for (const other of [first, ...conflicts]) {
      const peer = other === first ? conflicts[0]! : first;
      skipped.push({
        path: other.sourcePath,
        reason: `Conflicting source session ${key}: ${first.sourcePath} and ${peer === first ? other.sourcePath : peer.sourcePath} have different content or project identities; resolve the source conflict and prepare again`,
      });
    }
  }
  return kept;
}

/** SHA-256 hex of a file, streamed. */
export function sha256File(filePath: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    createReadStream(filePath)
      .on("data", (chunk) => hash.update(chunk))
      .on("error", reject)
      .on("end", () => resolve(hash.digest("hex")));
  });
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}
