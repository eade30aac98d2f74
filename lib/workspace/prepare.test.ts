import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { loadWorkspace } from "@/lib/workspace/load";
import { prepareWorkspace } from "@/lib/workspace/prepare";

const FIXED_NOW = () => new Date("2026-11-21T10:00:00Z");
const CORPUS = path.join(SHARED_DIR, "corpus", "claude-code");

function claudeLine(over: Record<string, unknown>): string {
  return JSON.stringify({ type: "user", cwd: "/tmp/casefile-prepare-test", sessionId: "x", timestamp: "2026-05-12T01:00:00Z", message: { role: "user", content: "hello" }, ...over });
}

async function writeSession(dir: string, id: string, lines: string[]): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${id}.jsonl`);
  await fs.writeFile(file, lines.join("\n") + "\n");
  return file;
}

async function snapshot(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await fs.readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const st = await fs.stat(file);
    out[path.relative(root, file)] = `${st.mtimeMs}:${(await fs.readFile(file)).toString("base64")}`;
  }
  return out;
}

describe.skipIf(!HAS_SHARED)(`prepare over the real Claude Code corpus${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("gives every main session a row, attaches subagents, and writes nothing on a re-run", async () => {
    const ctx = createCoreContext(await makeTempDir(), { now: FIXED_NOW });
    const summary = await prepareWorkspace(ctx, { claudeRoots: [CORPUS] });
    expect(summary.sessions).toBe(14);
    expect(summary.skipped).toEqual([]);
    const ws = await loadWorkspace(ctx);
    const rows = ws.projects.flatMap((p) => p.rows.map((r) => ({ ...r, dir: p.dir })));
    expect(rows).toHaveLength(14);
    for (const row of rows) {
      expect(row.session_path).toMatch(/^sessions\/claude-code\/[^/]+\.jsonl$/);
      expect(row.session_path).not.toMatch(/agent-|subagents/);
      expect(row.turns.length).toBeGreaterThan(0);
    }
    // Era 2: 2.1.6-good's subagent is copied beside its parent; era 1: 2.0.60-good's flat agents too.
    const era2 = rows.find((r) => r.source_session_id === "0357781f-d024-4cef-8496-56501c76afb3")!;
    expect(era2.turns.map((t) => [t.turn_start_line, t.turn_end_line])).toEqual([[2, 31], [32, 78], [79, 84], [85, 85], [86, 86]]);
    expect(await fs.readdir(path.join(era2.dir, "sessions", "claude-code", era2.source_session_id, "subagents"))).toEqual(["agent-aee03d2.jsonl"]);
    const era1 = rows.find((r) => r.source_session_id === "2caf2337-66bf-41d1-ad27-9d2cab7bd2dc")!;
    expect(era1.turns[0]).toEqual({ turn_ref: "T0001", turn_start_line: 3, turn_end_line: 7 });
    expect((await fs.readdir(path.join(era1.dir, "sessions", "claude-code", era1.source_session_id, "subagents"))).sort()).toEqual([
      "agent-99b9cd12.jsonl",
      "agent-b0a81b9b.jsonl",
      "agent-f905a488.jsonl",
    ]);
    const before = await snapshot(ctx.workspaceRoot);
    const again = await prepareWorkspace(createCoreContext(ctx.workspaceRoot, { now: () => new Date("2026-11-22T10:00:00Z") }), { claudeRoots: [CORPUS] });
    expect(again.unchanged).toBe(true);
    expect(await snapshot(ctx.workspaceRoot)).toEqual(before);
  });
});

describe.skipIf(!HAS_SHARED)(`prepare with prompt-diary's one-day window${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("reproduces the multi-turn fixture spans and metadata", async () => {
    const ctx = createCoreContext(await makeTempDir(), { now: FIXED_NOW });
    const source = path.join(SHARED_DIR, "fixtures", "prompt-diary", "prepare-multi-turns", "claude");
    await prepareWorkspace(ctx, { claudeRoots: [source], date: "2026-05-12", timezone: "Asia/Shanghai" });
    const ws = await loadWorkspace(ctx);
    expect(ws.projects.map((p) => p.projectLabel)).toEqual(["ReportGenerator"]);
    expect(ws.projects[0]!.rows[0]!.turns.map((t) => [t.turn_ref, t.turn_start_line, t.turn_end_line])).toEqual([
      ["T0001", 2, 5],
      ["T0002", 6, 8],
      ["T0003", 9, 10],
    ]);
    const meta = JSON.parse(await fs.readFile(path.join(ctx.workspaceRoot, "metadata.json"), "utf8"));
    expect(meta).toEqual({
      schema_version: 3,
      report_date: "2026-05-12",
      timezone: "Asia/Shanghai",
      status: "final",
      prepared_at: "2026-11-21T18:00:00+08:00",
      report_window_local: { start: "2026-05-12T00:00:00+08:00", end: "2026-05-13T00:00:00+08:00" },
      report_window_utc: { start: "2026-05-11T16:00:00Z", end: "2026-05-12T16:00:00Z" },
    });
    const project = await fs.readFile(path.join(ws.projects[0]!.dir, "project.json"), "utf8");
    expect(Object.keys(JSON.parse(project))).toEqual(["schema_version", "project_key", "project_label"]);
    // A different target without --force is refused, naming the mismatch.
    await expect(prepareWorkspace(ctx, { claudeRoots: [source] })).rejects.toThrow(/does not match the requested target/);
    const rebuilt = await prepareWorkspace(ctx, { claudeRoots: [source], force: true });
    expect(rebuilt.window).toEqual({ kind: "all" });
  });
});

describe("prepare selection and refs", () => {
  it("keeps existing refs when a new session sorts first, and numbers turns per row", async () => {
    const src = await makeTempDir();
    const dir = path.join(src, "-tmp-proj");
    await writeSession(dir, "bbbb", [claudeLine({}), claudeLine({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: "hi" }] } }), claudeLine({ message: { role: "user", content: "again" } })]);
    const ctx = createCoreContext(await makeTempDir());
    await prepareWorkspace(ctx, { claudeRoots: [src] });
    await writeSession(dir, "aaaa", [claudeLine({})]);
    const summary = await prepareWorkspace(ctx, { claudeRoots: [src] });
    expect(summary.unchanged).toBe(false);
    const rows = (await loadWorkspace(ctx)).projects[0]!.rows;
    expect(rows.map((r) => [r.session_ref, r.source_session_id])).toEqual([["S0001", "bbbb"], ["S0002", "aaaa"]]);
    expect(rows[0]!.turns).toEqual([
      { turn_ref: "T0001", turn_start_line: 1, turn_end_line: 2 },
      { turn_ref: "T0002", turn_start_line: 3, turn_end_line: 3 },
    ]);
  });

  it("collapses identical duplicates and skips conflicting ones naming both paths", async () => {
    const src = await makeTempDir();
    const same = [claudeLine({})];
    const a = await writeSession(path.join(src, "a"), "dup-same", same);
    const b = await writeSession(path.join(src, "b"), "dup-same", same);
    const c = await writeSession(path.join(src, "a"), "dup-conflict", [claudeLine({})]);
    const d = await writeSession(path.join(src, "b"), "dup-conflict", [claudeLine({ message: { role: "user", content: "different" } })]);
    await writeSession(path.join(src, "a"), "fine", [claudeLine({})]);
    const ctx = createCoreContext(await makeTempDir());
    const summary = await prepareWorkspace(ctx, { claudeRoots: [src] });
    expect(summary.sessions).toBe(2);
    expect(summary.skipped).toContainEqual({ path: b, reason: `identical duplicate of ${a}` });
    const conflicts = summary.skipped.filter((s) => s.reason.startsWith("Conflicting source session claude-code/dup-conflict"));
    expect(conflicts.map((s) => s.path).sort()).toEqual([c, d].sort());
    for (const s of conflicts) expect(s.reason).toContain(`${c} and ${d}`);
  });

  it("skips sidechain-only files and files without a trigger, with reasons, and tolerates bad lines", async () => {
    const src = await makeTempDir();
    const dir = path.join(src, "-tmp-proj");
    const side = await writeSession(dir, "orphan-side", [claudeLine({ isSidechain: true, sessionId: "no-such-parent" })]);
    const none = await writeSession(dir, "no-trigger", [JSON.stringify({ type: "summary", summary: "x" })]);
    await writeSession(dir, "messy", ["{broken", JSON.stringify({ type: "brand-new-type", x: 1 }), claudeLine({}), "\u0000\u0001"]);
    const summary = await prepareWorkspace(createCoreContext(await makeTempDir()), { claudeRoots: [src] });
    expect(summary.sessions).toBe(1);
    expect(summary.turns).toBe(1);
    expect(summary.skipped.map((s) => s.path).sort()).toEqual([none, side].sort());
    for (const s of summary.skipped) expect(s.reason.length).toBeGreaterThan(10);
  });

  it("refuses --date without --timezone", async () => {
    const error = await prepareWorkspace(createCoreContext(await makeTempDir()), { claudeRoots: [], date: "2026-05-12" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("invalid_input");
  });
});
