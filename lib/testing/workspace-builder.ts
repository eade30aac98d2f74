/** Minimal schema-3 test workspaces written into a temp folder. */
import fs from "node:fs/promises";
import path from "node:path";

import { metadataPath, projectDir, projectJsonPath, sessionsIndexPath } from "@/lib/fs/workspace-layout";
import { makeTempDir } from "@/lib/testing/shared";
import { serializeIndex } from "@/lib/workspace/prepare-refs";
import type { IndexTurn } from "@/lib/sources/common/schema";

export const TEST_PROJECT_KEY = "Demo-0123456789ab";

export type TestSession = { ref: string; source?: string; content: string | Buffer; turns?: IndexTurn[]; fileName?: string };

/**
 * Writes a minimal schema-3 workspace into a temp dir: metadata.json, one project, an index row
 * per session and the session files with exactly the given bytes. Returns the root.
 */
export async function buildTestWorkspace(sessions: TestSession[]): Promise<string> {
  const root = await makeTempDir("casefile-test-ws-");
  await fs.writeFile(
    metadataPath(root),
    JSON.stringify({ schema_version: 3, report_date: "2026-05-12", timezone: "UTC", status: "final", prepared_at: "2026-05-13T00:00:00Z" }),
  );
  const dir = projectDir(root, TEST_PROJECT_KEY);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(projectJsonPath(dir), JSON.stringify({ schema_version: 3, project_key: TEST_PROJECT_KEY, project_label: "Demo" }));
  const rows = [];
  for (const s of sessions) {
    const source = s.source ?? "claude-code";
    const fileName = s.fileName ?? `${s.ref.toLowerCase()}.jsonl`;
    const sessionPath = `sessions/${source}/${fileName}`;
    await fs.mkdir(path.join(dir, "sessions", source), { recursive: true });
    await fs.writeFile(path.join(dir, sessionPath), s.content);
    const turns = s.turns ?? [{ turn_ref: "T0001", turn_start_line: 1, turn_end_line: 1 }];
    rows.push({
      session_ref: s.ref,
      source,
      source_session_id: `${s.ref}-id`,
      session_path: sessionPath,
      target_start_line: turns[0]!.turn_start_line,
      target_end_line: turns[turns.length - 1]!.turn_end_line,
      turns,
    });
  }
  await fs.writeFile(sessionsIndexPath(dir), serializeIndex(rows));
  return root;
}

/** `n` Claude user-message lines, `\n`-terminated. */
export function userLines(n: number): string {
  return Array.from({ length: n }, (_, i) => JSON.stringify({ type: "user", timestamp: "2026-05-12T01:00:00Z", message: { role: "user", content: `message ${i + 1}` } })).join("\n") + "\n";
}
