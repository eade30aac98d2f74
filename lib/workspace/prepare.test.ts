/** Tests of prepare: selection, refs, Codex sources. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { AppError } from "@/lib/errors";
import { readSessionLines } from "@/lib/session-reader/read-session-lines";
import type { CompactRecord } from "@/lib/session-reader/schema";
import { codex, toJsonl } from "@/lib/sources/codex/rollout-builder";
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

const CODEX_CORPUS = path.join(SHARED_DIR, "corpus", "codex");
const CODEX_FIXTURES = path.join(SHARED_DIR, "fixtures", "prompt-diary");

/** Every line of a session through read_session_lines in compact mode, 2000 at a time. */
async function readAllCompact(ctx: ReturnType<typeof createCoreContext>, projectKey: string, sessionRef: string, lineCount: number): Promise<CompactRecord[]> {
  const records: CompactRecord[] = [];
  for (let start = 1; start <= lineCount; start += 2000) {
    const result = await readSessionLines(ctx, { project_key: projectKey, session_ref: sessionRef, start_line: start, end_line: Math.min(lineCount, start + 1999) });
    if (result.status !== "ok") throw new Error(JSON.stringify(result));
    records.push(...(result.records as CompactRecord[]));
  }
  return records;
}

describe.skipIf(!HAS_SHARED)(`prepare over the real Codex corpus${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("prepares every rollout (legacy included), reads every line back, and writes nothing on a re-run", async () => {
    const ctx = createCoreContext(await makeTempDir(), { now: FIXED_NOW });
    const summary = await prepareWorkspace(ctx, { claudeRoots: [], codexRoots: [CODEX_CORPUS] });
    expect(summary.skipped).toEqual([]);
    expect(summary.sessions).toBe(5);
    const ws = await loadWorkspace(ctx);
    const rows = ws.projects.flatMap((p) => p.rows.map((row) => ({ row, project: p })));
    expect(rows.map(({ row }) => row.source_session_id).sort()).toEqual([
      "019b7f94-51b4-7593-922e-ba12b5b73b52",
      "019c581e-8542-7bb1-b7e1-7e6221c3047c",
      "019e1625-789d-76c0-80ab-3724b5ddb799",
      "019e9625-802f-7e91-840a-cfe88d14117a",
      "981d779b-eff6-469e-bb55-b423fe135b79",
    ]);
    for (const { row, project } of rows) {
      expect(row).toMatchObject({ source: "codex", session_path: expect.stringMatching(/^sessions\/codex\/[^/]+\.jsonl$/) });
      const copied = path.join(project.dir, row.session_path);
      const lineCount = (await fs.readFile(copied, "utf8")).split("\n").filter((l) => l !== "").length;
      const records = await readAllCompact(ctx, project.projectKey, row.session_ref, lineCount);
      expect(records).toHaveLength(lineCount);
      const full = await readSessionLines(ctx, { project_key: project.projectKey, session_ref: row.session_ref, start_line: 1, end_line: Math.min(100, lineCount), mode: "full" });
      expect(full.status).toBe("ok");
    }
    const legacy = rows.find(({ row }) => row.source_session_id.startsWith("981d779b"))!;
    expect(legacy.project.projectLabel).toBe("codex_log_viewer");
    expect(legacy.row.turns).toHaveLength(11);
    const before = await snapshot(ctx.workspaceRoot);
    const again = await prepareWorkspace(createCoreContext(ctx.workspaceRoot, { now: () => new Date("2026-11-22T10:00:00Z") }), { claudeRoots: [], codexRoots: [CODEX_CORPUS] });
    expect(again.unchanged).toBe(true);
    expect(await snapshot(ctx.workspaceRoot)).toEqual(before);
  });

  it("reproduces the Codex fixture spans through prepare, and marks the echo in compact reads", async () => {
    const ctx = createCoreContext(await makeTempDir(), { now: FIXED_NOW });
    await prepareWorkspace(ctx, { claudeRoots: [], codexRoots: [path.join(CODEX_FIXTURES, "prepare-multi-turns", "codex")], date: "2026-05-12", timezone: "Asia/Shanghai" });
    const project = (await loadWorkspace(ctx)).projects[0]!;
    expect(project.rows[0]!.turns.map((t) => [t.turn_ref, t.turn_start_line, t.turn_end_line])).toEqual([["T0001", 4, 6], ["T0002", 10, 12]]);
    expect(project.rows[0]!.session_path).toBe("sessions/codex/rollout-2026-05-26T09-00-00-fake-codex-multi-turn.jsonl");
    const records = await readAllCompact(ctx, project.projectKey, "S0001", 12);
    expect(records[4]).toMatchObject({ line: 5, duplicate_of: 4, summary: "Echo of message at line 4." });
    const crossDay = path.join(CODEX_FIXTURES, "prepare-cross-day-reactions", "codex");
    for (const [date, span] of [["2026-05-18", [4, 13]], ["2026-05-19", [16, 18]]] as const) {
      const dayCtx = createCoreContext(await makeTempDir(), { now: FIXED_NOW });
      await prepareWorkspace(dayCtx, { claudeRoots: [], codexRoots: [crossDay], date, timezone: "Asia/Shanghai" });
      const row = (await loadWorkspace(dayCtx)).projects[0]!.rows[0]!;
      expect(row.turns.map((t) => [t.turn_ref, t.turn_start_line, t.turn_end_line])).toEqual([["T0001", ...span]]);
    }
  });
});

describe("prepare with Codex sources", () => {
  const meta = (id: string, extra: Record<string, unknown> = {}) => codex.meta({ id, cwd: "/tmp/casefile-codex-prepare", ...extra });
  const turn = (text: string, ms: number) => [codex.user(text, ms), codex.userEvent(text, ms), codex.assistant(`re: ${text}`, ms + 1), codex.taskComplete(ms + 2)];

  async function sessionsTree(files: Record<string, (Record<string, unknown> | string)[]>): Promise<string> {
    const root = await makeTempDir();
    for (const [name, records] of Object.entries(files)) {
      const file = path.join(root, "2026", "05", "12", name);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, toJsonl(records));
    }
    return root;
  }

  it("drops a fork's inherited leading turns, renumbers the rest, keeps its bytes, and skips a fully inherited fork", async () => {
    const parent = [meta("parent"), ...turn("plan the work", 0), ...turn("write the code", 10)];
    const child = [meta("child", { forked_from_id: "parent" }), ...turn("plan the work", 0), ...turn("write the code", 10), ...turn("now test it", 20)];
    const clone = [meta("clone", { forked_from_id: "parent" }), ...turn("plan the work", 0), ...turn("write the code", 10)];
    const src = await sessionsTree({ "rollout-a-parent.jsonl": parent, "rollout-b-child.jsonl": child, "rollout-c-clone.jsonl": clone });
    const ctx = createCoreContext(await makeTempDir());
    const summary = await prepareWorkspace(ctx, { claudeRoots: [], codexRoots: [src] });
    expect(summary.skipped).toEqual([{ path: path.join(src, "2026/05/12/rollout-c-clone.jsonl"), reason: "Codex fork of parent: every turn is inherited from its selected ancestors" }]);
    const project = (await loadWorkspace(ctx)).projects[0]!;
    const childRow = project.rows.find((r) => r.source_session_id === "child")!;
    expect(childRow.turns).toEqual([{ turn_ref: "T0001", turn_start_line: 10, turn_end_line: 13 }]);
    expect(await fs.readFile(path.join(project.dir, childRow.session_path), "utf8")).toBe(toJsonl(child));
    expect(project.rows.find((r) => r.source_session_id === "parent")!.turns).toHaveLength(2);
  });

  it("skips subagent and report-generation sessions with their reasons, beside Claude sessions of the same project", async () => {
    const src = await sessionsTree({
      "rollout-1-root.jsonl": [meta("root"), ...turn("hello", 0)],
      "rollout-2-child.jsonl": [meta("kid", { source: { subagent: { thread_spawn: { parent_thread_id: "root" } } } }), ...turn("sub task", 5)],
      "rollout-3-report.jsonl": [meta("report", { originator: "prompt_diary" }), ...turn("extract evidence", 5)],
      "rollout-4-empty.jsonl": [meta("empty"), codex.env(1)],
    });
    const claude = await makeTempDir();
    await writeSession(path.join(claude, "-tmp-casefile-codex-prepare"), "claude-1", [claudeLine({ cwd: "/tmp/casefile-codex-prepare" })]);
    const ctx = createCoreContext(await makeTempDir());
    const summary = await prepareWorkspace(ctx, { claudeRoots: [claude], codexRoots: [src] });
    const reasons = Object.fromEntries(summary.skipped.map((s) => [path.basename(s.path), s.reason]));
    expect(reasons).toEqual({
      "rollout-2-child.jsonl": "Codex subagent session (session_meta source.subagent)",
      "rollout-3-report.jsonl": 'prompt-diary report-generation session (session_meta originator "prompt_diary")',
      "rollout-4-empty.jsonl": "no human trigger (no user turn to index)",
    });
    const projects = (await loadWorkspace(ctx)).projects;
    expect(projects).toHaveLength(1);
    expect(projects[0]!.rows.map((r) => [r.session_ref, r.source, r.source_session_id])).toEqual([["S0001", "claude-code", "claude-1"], ["S0002", "codex", "root"]]);
  });

  it("skips two different sessions that would be copied to the same file name", async () => {
    const root = await makeTempDir();
    for (const [dir, id] of [["a", "first"], ["b", "second"]] as const) {
      await fs.mkdir(path.join(root, dir), { recursive: true });
      await fs.writeFile(path.join(root, dir, "session-01.jsonl"), toJsonl([meta(id), ...turn(id, 0)]));
    }
    const summary = await prepareWorkspace(createCoreContext(await makeTempDir()), { claudeRoots: [], codexRoots: [root] });
    expect(summary.sessions).toBe(0);
    expect(summary.skipped.map((s) => s.reason)).toEqual([expect.stringMatching(/^Session filename collision/), expect.stringMatching(/^Session filename collision/)]);
  });
});
