/** The fixture workspaces open: projects, sessions and lines read. */
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { readSessionLines } from "@/lib/session-reader/read-session-lines";
import { readViewerLines } from "@/lib/session-reader/viewer-lines";
import { copyFixtureWorkspace, HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { listSessions } from "@/lib/forensics/__fixtures__/list-sessions";
import { getSessionDetail, listProjects } from "@/lib/workspace/projects";

const FIXTURES = ["session-reader/workspace", "evidence-extraction/basic-two-turns/workspace", "project-synthesis/disposition-scope/workspace", "daily-synthesis/two-projects/workspace"];

/** Fixtures missing metadata.json upstream get the two-projects one (fixtures README's inference). */
async function openable(relative: string): Promise<string> {
  const root = await copyFixtureWorkspace(relative);
  if (!existsSync(path.join(root, "metadata.json"))) {
    await fs.copyFile(path.join(SHARED_DIR, "fixtures/prompt-diary/daily-synthesis/two-projects/workspace/metadata.json"), path.join(root, "metadata.json"));
  }
  return root;
}

describe.skipIf(!HAS_SHARED)(`prompt-diary fixture workspaces open in the dashboard and the tools${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it.each(FIXTURES)("%s", async (relative) => {
    const ctx = createCoreContext(await openable(relative));
    const projects = await listProjects(ctx);
    expect(projects.length).toBeGreaterThan(0);
    let sessionsRead = 0;
    for (const project of projects) {
      const list = await listSessions(ctx, { project_key: project.project_key, limit: 500 });
      expect(list.status).toBe("ok");
      if (list.status !== "ok") continue;
      expect(list.total).toBe(project.session_count);
      for (const s of list.sessions) {
        const file = path.join(ctx.workspaceRoot, "projects", project.project_key);
        const detail = await getSessionDetail(ctx, project.project_key, s.session_ref).catch(() => null);
        if (detail === null) {
          // Some upstream fixtures ship an index without the session files (daily synthesis only).
          expect(existsSync(file)).toBe(true);
          continue;
        }
        const last = detail.line_count;
        const compact = await readViewerLines(ctx, { projectKey: project.project_key, sessionRef: s.session_ref, start: 1, end: last, mode: "compact" });
        expect(compact.records).toHaveLength(last);
        const full = await readViewerLines(ctx, { projectKey: project.project_key, sessionRef: s.session_ref, start: 1, end: Math.min(last, 100), mode: "full" });
        expect(full.records.length).toBe(Math.min(last, 100));
        const tool = await readSessionLines(ctx, { project_key: project.project_key, session_ref: s.session_ref, start_line: 1, end_line: last });
        expect(tool.status).toBe("ok");
        sessionsRead += 1;
      }
    }
    if (relative !== "daily-synthesis/two-projects/workspace") expect(sessionsRead).toBeGreaterThan(0);
  });
});
