/** Tests of loadWorkspace (contract §1.10). */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import type { AppError } from "@/lib/errors";
import { copyFixtureWorkspace, HAS_SHARED, makeTempDir, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { loadWorkspace } from "@/lib/workspace/load";
import { resolveSession } from "@/lib/workspace/sessions";

async function workspaceWith(index: string, project: object = { schema_version: 3, project_key: "P-aaaaaaaaaaaa", project_label: "P" }) {
  const root = await makeTempDir();
  await fs.writeFile(path.join(root, "metadata.json"), JSON.stringify({ schema_version: 3, report_date: "2026-05-12", timezone: "UTC", status: "final" }));
  const dir = path.join(root, "projects", "P-aaaaaaaaaaaa");
  await fs.mkdir(path.join(dir, "sessions"), { recursive: true });
  await fs.writeFile(path.join(dir, "project.json"), JSON.stringify(project));
  await fs.writeFile(path.join(dir, "sessions.index.jsonl"), index);
  return root;
}

const row = (over: Record<string, unknown> = {}) =>
  JSON.stringify({ session_ref: "S0001", source: "claude-code", source_session_id: "a", session_path: "sessions/claude-code/a.jsonl", target_start_line: 2, target_end_line: 5, turns: [{ turn_ref: "T0001", turn_start_line: 2, turn_end_line: 5 }], ...over });

async function loadError(root: string): Promise<AppError> {
  try {
    await loadWorkspace(createCoreContext(root));
  } catch (error) {
    return error as AppError;
  }
  throw new Error("expected loadWorkspace to fail");
}

describe("loadWorkspace (contract §1.10)", () => {
  it("reads rows in any key order, skipping blank lines and ignoring legacy fields", async () => {
    const root = await workspaceWith(`${row({ subagent_path: "" })}\n\n`);
    const ws = await loadWorkspace(createCoreContext(root));
    expect(ws.readOnly).toBe(false);
    expect(ws.projects).toHaveLength(1);
    expect(ws.projects[0]!.rows[0]).toEqual(JSON.parse(row()));
  });

  it.each([
    [row({ turns: [{ turn_ref: "X1", turn_start_line: 2, turn_end_line: 3 }] }), "turns[1] turn_ref 'X1' must match T0001"],
    [`${row()}\n${row()}`, "duplicate session_ref 'S0001'"],
    [row({ session_path: "../escape.jsonl" }), "session_path must be a relative sessions/ path"],
    [row({ session_path: "/abs/a.jsonl" }), "session_path must be a relative sessions/ path"],
    [row({ target_start_line: 0 }), "target span start line must be positive"],
    [row({ turns: [{ turn_ref: "T0002", turn_start_line: 5, turn_end_line: 4 }] }), "turn T0002 end line must be >= start line"],
    [row({ turns: [{ turn_ref: "T0001", turn_start_line: 2, turn_end_line: 3 }, { turn_ref: "T0001", turn_start_line: 4, turn_end_line: 5 }] }), "duplicate turn_ref 'T0001'"],
    [row({ session_ref: 7 }), "missing string field 'session_ref'"],
    ["{not json", "contains invalid JSON"],
    ["[1]", "must contain a JSON object"],
  ])("leaves out the malformed row %s and lists it with its error, workspace-relative", async (index, message) => {
    const root = await workspaceWith(`${row({ session_ref: "S0009", source_session_id: "ok" })}\n${index}`);
    const project = (await loadWorkspace(createCoreContext(root))).projects[0]!;
    expect(project.rows.map((r) => r.session_ref)).toContain("S0009");
    expect(project.brokenRows).toHaveLength(1);
    const broken = project.brokenRows[0]!;
    expect(broken.message).toContain(message);
    expect(broken.message).toMatch(/^projects\/P-aaaaaaaaaaaa\/sessions\.index\.jsonl:\d+ /);
    expect(broken.message).not.toContain(root);
  });

  it("names the broken row's session_ref, and reading that session says why", async () => {
    const root = await workspaceWith(`${row()}\n${row({ session_ref: "S0002", turns: [{ turn_ref: "X", turn_start_line: 2, turn_end_line: 3 }] })}\n`);
    const project = (await loadWorkspace(createCoreContext(root))).projects[0]!;
    expect(project.brokenRows).toEqual([{ line: 2, session_ref: "S0002", message: expect.stringContaining("turn_ref 'X' must match T0001") }]);
    const resolved = await resolveSession(createCoreContext(root), "P-aaaaaaaaaaaa", "S0002");
    expect(resolved).toMatchObject({ ok: false, failure: { field: "session_ref", message: expect.stringMatching(/^session_ref 'S0002' has a malformed index row: projects\/P-aaaaaaaaaaaa\/sessions\.index\.jsonl:2 /) } });
  });

  it("reads T followed by more than four digits (T10000)", async () => {
    const root = await workspaceWith(row({ turns: [{ turn_ref: "T9999", turn_start_line: 2, turn_end_line: 3 }, { turn_ref: "T10000", turn_start_line: 4, turn_end_line: 5 }] }));
    const project = (await loadWorkspace(createCoreContext(root))).projects[0]!;
    expect(project.brokenRows).toEqual([]);
    expect(project.rows[0]!.turns.map((t) => t.turn_ref)).toEqual(["T9999", "T10000"]);
  });

  it("marks a workspace whose window has a null start as all time (home page: \"all time\")", async () => {
    const root = await workspaceWith(row());
    expect((await loadWorkspace(createCoreContext(root))).metadata.all_time).toBe(false);
    await fs.writeFile(path.join(root, "metadata.json"), JSON.stringify({ schema_version: 3, report_date: "2026-05-12", timezone: "UTC", status: "partial", report_window_utc: { start: null, end: null } }));
    expect((await loadWorkspace(createCoreContext(root))).metadata.all_time).toBe(true);
  });

  it("requires project_key to match the directory name", async () => {
    const error = await loadError(await workspaceWith(row(), { project_key: "Other", project_label: "P" }));
    expect(error.message).toBe("projects/P-aaaaaaaaaaaa/project.json project_key 'Other' must match directory 'P-aaaaaaaaaaaa'");
  });

  it("reports a missing metadata.json as not_found with a hint", async () => {
    const error = await loadError(await makeTempDir());
    expect(error.code).toBe("not_found");
    expect(error.message).toBe("required JSON file is missing: metadata.json");
  });

  it("revalidates its cache when the index changes on disk", async () => {
    const root = await workspaceWith(row());
    const ctx = createCoreContext(root);
    expect((await loadWorkspace(ctx)).projects[0]!.rows).toHaveLength(1);
    const indexPath = path.join(root, "projects", "P-aaaaaaaaaaaa", "sessions.index.jsonl");
    await fs.writeFile(indexPath, `${row()}\n${row({ session_ref: "S0002" })}\n`);
    expect((await loadWorkspace(ctx)).projects[0]!.rows.map((r) => r.session_ref)).toEqual(["S0001", "S0002"]);
  });
});

describe.skipIf(!HAS_SHARED)(`prompt-diary fixture workspaces${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("opens disposition-scope (schema 3, nine Codex sessions)", async () => {
    const ws = await loadWorkspace(createCoreContext(await copyFixtureWorkspace("project-synthesis/disposition-scope/workspace")));
    expect(ws.metadata.schema_version).toBe(3);
    expect(ws.projects.map((p) => [p.projectKey, p.projectLabel, p.rows.length])).toEqual([["ReportGenerator-e6ff7eeda632", "ReportGenerator", 9]]);
  });

  it("opens session-reader read-only (schema 2, no project.json upstream)", async () => {
    const ws = await loadWorkspace(createCoreContext(await copyFixtureWorkspace("session-reader/workspace")));
    expect(ws.readOnly).toBe(true);
    expect(ws.projects[0]!.projectLabel).toBe("ReportGenerator");
    expect(ws.projects[0]!.rows.map((r) => r.session_path)).toEqual(["sessions/codex/session-001.jsonl", "sessions/claude/session-002.jsonl"]);
  });

  it("opens two-projects in directory order", async () => {
    const ws = await loadWorkspace(createCoreContext(await copyFixtureWorkspace("daily-synthesis/two-projects/workspace")));
    expect(ws.projects.map((p) => p.projectKey)).toEqual(["ProjectAlpha-aaaaaaaaaaaa", "ProjectBeta-bbbbbbbbbbbb"]);
  });
});
