import fs from "node:fs/promises";
import path from "node:path";
import type Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FoundSession } from "@/lib/sources/common/agent-source";
import { buildFixtureDatabase, insertRow } from "@/lib/sources/opencode/__fixtures__/fixture-db";
import { tally } from "@/lib/sources/opencode/__fixtures__/tally";
import { opencodeSource } from "@/lib/sources/opencode/source";
import { makeTempDir } from "@/lib/testing/shared";

const STORAGE_FIXTURE = path.join(__dirname, "__fixtures__", "storage-home", "storage");

let dir: string;
let file: string;
let writer: Database.Database;

beforeEach(async () => {
  dir = await makeTempDir("casefile-opencode-db-");
  ({ file, writer } = buildFixtureDatabase(dir));
});

afterEach(async () => {
  if (writer.open) writer.close();
  await fs.rm(dir, { recursive: true, force: true });
});

async function sessionsById(root: string): Promise<Map<string, FoundSession>> {
  const { sessions } = await opencodeSource.discover(root);
  return new Map(sessions.map((s) => [s.sourceSessionId, s]));
}

async function read(session: FoundSession) {
  const exported = await opencodeSource.exportLines(session);
  return { exported, transcript: opencodeSource.parseLines(exported.lines, session.fileName) };
}

describe("opencode.db while OpenCode has it open (WAL, rows still in the -wal file)", () => {
  it("keeps the rows in the WAL file: the reader does not depend on a checkpoint", async () => {
    expect((await fs.stat(`${file}-wal`)).size).toBeGreaterThan(0);
  });

  it("discovers every session, child sessions included, with project roots and row stamps", async () => {
    const { sessions, warnings } = await opencodeSource.discover(dir);
    expect(warnings).toEqual([]);
    expect(sessions.map((s) => s.sourceSessionId).sort()).toEqual(["ses_fixA0001", "ses_fixB0001", "ses_fixChild1"]);
    const a = sessions.find((s) => s.sourceSessionId === "ses_fixA0001")!;
    expect(a).toEqual({
      source: "opencode",
      sourceSessionId: "ses_fixA0001",
      sourcePath: file,
      part: "ses_fixA0001",
      fileName: "ses_fixA0001.jsonl",
      projectRoot: "/work/proj-a",
      // newest time_updated of the session's rows (its own: T + 30000), 5 message rows, 15 part rows
      stamp: "db:1767225630000:5:15",
    });
  });

  it("discovers the same sessions from the database file itself", async () => {
    const { sessions } = await opencodeSource.discover(file);
    expect(sessions).toHaveLength(3);
  });

  it("changes a session's stamp when OpenCode writes a row for it, and only its stamp", async () => {
    const before = await sessionsById(dir);
    insertRow(writer, "part", {
      id: "prt_b04b",
      message_id: "msg_b04",
      session_id: "ses_fixB0001",
      time_created: 1767225800000,
      time_updated: 1767225800000,
      data: { type: "text", text: "more" },
    });
    const after = await sessionsById(dir);
    expect(after.get("ses_fixB0001")!.stamp).not.toBe(before.get("ses_fixB0001")!.stamp);
    expect(after.get("ses_fixA0001")!.stamp).toBe(before.get("ses_fixA0001")!.stamp);
    expect(after.get("ses_fixChild1")!.stamp).toBe(before.get("ses_fixChild1")!.stamp);
  });

  it("exports session A: the session object, each message then its parts; malformed rows left out with warnings", async () => {
    const a = (await sessionsById(dir)).get("ses_fixA0001")!;
    const { exported } = await read(a);
    expect(exported.lines).toHaveLength(19);
    expect(exported.warnings).toEqual([
      { file, where: "key part/prt_a03f", problem: "data is not a JSON object; part left out" },
      { file, where: "key message/msg_a05", problem: "data is not a JSON object; message left out, its parts kept" },
    ]);
    const first = JSON.parse(exported.lines[0]!) as Record<string, unknown>;
    expect(first).toEqual({
      id: "ses_fixA0001",
      slug: "brave-fox",
      projectID: "prj_fixture",
      directory: "/work/proj-a",
      title: "Fix the failing tests",
      version: "1.2.10",
      summary: { additions: 1, deletions: 1, files: 1 },
      time: { created: 1767225600000, updated: 1767225630000 },
    });
    // A message keeps its own object and gets its ids back; a part gets id, sessionID and messageID.
    expect(JSON.parse(exported.lines[1]!)).toMatchObject({ id: "msg_a01", sessionID: "ses_fixA0001", role: "user", agent: "build" });
    expect(JSON.parse(exported.lines[2]!)).toMatchObject({ id: "prt_a01a", sessionID: "ses_fixA0001", messageID: "msg_a01", type: "text" });
    expect(exported.lines.every((l) => !l.includes("\n"))).toBe(true);
  });

  it("reads session A: two prompts, four tool calls, a bash exit 1 and an edit error, usage per provider", async () => {
    const a = (await sessionsById(dir)).get("ses_fixA0001")!;
    const { exported, transcript } = await read(a);
    expect(transcript.records.map((r) => r.line)).toEqual(exported.lines.map((_, i) => i + 1));
    expect(transcript.warnings).toEqual([]);
    expect(tally(transcript)).toEqual({
      records: 19,
      turns: 2,
      toolCalls: 4,
      errorLines: [9, 13],
      triggerLines: [2, 17],
      // anthropic (120 fresh) + openai written by 1.2.10 (200 fresh: OpenCode already subtracted the cache)
      usage: { entries: 2, input: 320, output: 90, cacheRead: 6000, cacheWrite: 300, reasoning: 40, costUsd: 0.0163 },
    });
    expect(transcript.turns).toEqual([
      { turn_start_line: 2, turn_end_line: 16 },
      { turn_start_line: 17, turn_end_line: 19 },
    ]);
    const r = transcript.records;
    expect(r[1]!.headline).toBe("User: fix the failing tests in src/math.ts");
    expect(r[3]!.headline).toMatch(/^Synthetic: Called the Read tool/);
    expect(r[3]!.trigger).toBe(false);
    expect(r[6]!).toMatchObject({ type: "part:reasoning", headline: "Thinking: The add function subtracts; check the test first." });
    expect(r[7]!.headline).toBe("Read /work/proj-a/src/math.ts");
    expect(r[7]!.calls).toEqual([{ id: "toolu_01", name: "read", input: { filePath: "/work/proj-a/src/math.ts" }, files: ["/work/proj-a/src/math.ts"] }]);
    expect(r[8]!.headline).toBe("bash: npm test (exit 1)");
    expect(r[8]!.results).toEqual([{ id: "toolu_02", name: "bash", output: "FAIL src/math.test.ts\n  add(1, 2): expected 3, got -1", isError: true }]);
    expect(r[8]!.text).toContain("expected 3, got -1");
    expect(r[12]!.headline).toBe("Edit /work/proj-a/src/math.ts — error: Error: oldString not found in content");
    expect(r[13]!.headline).toBe("Task (general): Find the failing test");
    expect(r[9]!).toMatchObject({ type: "part:step-finish", usage: [] });
    expect(r[18]!).toMatchObject({ type: "part:text", role: null, text: "You're welcome." });
    expect(transcript).toMatchObject({ title: "Fix the failing tests", startedAt: "2026-01-01T00:00:00.000Z", endedAt: "2026-01-01T00:00:21.500Z", absent: [] });
  });

  it("reads session B: a retry, an invalid tool, a two-step message summed, an abort that is not an error, a revert", async () => {
    const b = (await sessionsById(dir)).get("ses_fixB0001")!;
    const { exported, transcript } = await read(b);
    expect(exported.warnings).toEqual([]);
    expect(tally(transcript)).toEqual({
      records: 18,
      turns: 1,
      toolCalls: 2,
      errorLines: [6, 7],
      triggerLines: [2],
      usage: { entries: 2, input: 1950, output: 135, cacheRead: 1100, cacheWrite: 0, reasoning: 0, costUsd: 0.005 },
    });
    const r = transcript.records;
    expect(r[5]!.headline).toBe("Retry 1: 429 Too Many Requests");
    expect(r[6]!.headline).toBe("Invalid tool call: frobnicate");
    expect(r[9]!.usage).toEqual([
      { model: "anthropic/claude-haiku-4.5", input: 1050, output: 15, cacheRead: 800, cacheWrite: 0, reasoning: 0, costUsd: 0.003, approximate: false },
    ]);
    expect(r[16]!).toMatchObject({ isError: false, headline: "Assistant (anthropic/claude-haiku-4.5) — aborted", usage: [] });
    expect(r[0]!.events).toEqual([{ kind: "rewind", detail: "reverted to msg_b04: it and everything after it are undone" }]);
    expect(r.filter((x) => x.events.some((e) => e.kind === "rewound")).map((x) => x.line)).toEqual([17, 18]);
  });

  it("reads the child session as a session of its own, marked as a subagent's", async () => {
    const child = (await sessionsById(dir)).get("ses_fixChild1")!;
    const { transcript } = await read(child);
    expect(transcript.title).toBe("Subagent: Find the failing test (@general subagent)");
    expect(transcript.records[0]!.headline).toBe("Subagent session (child of ses_fixA0001): Find the failing test (@general subagent)");
    expect(tally(transcript)).toEqual({
      records: 8,
      turns: 1,
      toolCalls: 1,
      errorLines: [],
      triggerLines: [2],
      usage: { entries: 1, input: 10, output: 30, cacheRead: 2000, cacheWrite: 100, reasoning: 0, costUsd: 0.001 },
    });
  });

  it("reads rows written after an earlier read, and a database replaced at its path, though a pass keeps its connection", async () => {
    const a = (await sessionsById(dir)).get("ses_fixA0001")!;
    const before = (await opencodeSource.exportLines(a)).lines.length;
    insertRow(writer, "message", { id: "msg_a99", session_id: "ses_fixA0001", time_created: 1767225699000, time_updated: 1767225699000, data: { role: "user", time: { created: 1767225699000 } } });
    expect((await opencodeSource.exportLines(a)).lines).toHaveLength(before + 1);
    // OpenCode's database deleted and made again (a reinstall): the new file is read, not the kept one.
    writer.close();
    for (const suffix of ["", "-wal", "-shm"]) await fs.rm(`${file}${suffix}`, { force: true });
    const rebuilt = buildFixtureDatabase(dir);
    writer = rebuilt.writer;
    rebuilt.writer.prepare("UPDATE session SET title = 'again' WHERE id = ?").run("ses_fixA0001");
    expect(JSON.parse((await opencodeSource.exportLines(a)).lines[0]!)).toMatchObject({ title: "again" });
  });

  it("reads a session deleted since discovery as no lines and a warning", async () => {
    const a = (await sessionsById(dir)).get("ses_fixA0001")!;
    writer.prepare("DELETE FROM session WHERE id = ?").run("ses_fixA0001");
    expect(await opencodeSource.exportLines(a)).toEqual({
      lines: [],
      warnings: [{ file, where: "key session/ses_fixA0001", problem: "session not found in the database" }],
    });
  });

  it("gives a warning, not an exception, while another connection holds the database locked", async () => {
    writer.close();
    const locker = buildFixtureDatabase(await makeTempDir("casefile-opencode-lock-"));
    locker.writer.pragma("locking_mode = EXCLUSIVE");
    locker.writer.exec("BEGIN EXCLUSIVE");
    locker.writer.prepare("UPDATE session SET title = 'x'").run();
    try {
      const { sessions, warnings } = await opencodeSource.discover(locker.file);
      expect(sessions).toEqual([]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ file: locker.file, where: "database" });
      expect(warnings[0]!.problem).toMatch(/^cannot read the OpenCode database: database is locked/);
      const found: FoundSession = {
        source: "opencode",
        sourceSessionId: "ses_fixA0001",
        sourcePath: locker.file,
        part: "ses_fixA0001",
        fileName: "ses_fixA0001.jsonl",
        projectRoot: null,
        stamp: "",
      };
      const exported = await opencodeSource.exportLines(found);
      expect(exported.lines).toEqual([]);
      expect(exported.warnings[0]!.problem).toMatch(/database is locked/);
    } finally {
      locker.writer.exec("ROLLBACK");
      locker.writer.close();
    }
  });

  it("reports a file that is not a database as a warning", async () => {
    const junk = path.join(dir, "opencode-junk.db");
    await fs.writeFile(junk, "not a database at all, just text that is long enough");
    const { sessions, warnings } = await opencodeSource.discover(dir);
    expect(sessions).toHaveLength(3);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ file: junk, where: "database" });
  });

  it("reports a session held by both the database and storage/ once, the copy updated last", async () => {
    await fs.cp(STORAGE_FIXTURE, path.join(dir, "storage"), { recursive: true });
    writer
      .prepare("INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
      .run("ses_old0001", "prj_old", "old-one", "/work/old", "Rename foo to bar", "0.9.0", 1751328000000, 1767300000000);
    const { sessions, warnings } = await opencodeSource.discover(dir);
    expect(sessions.map((s) => s.sourceSessionId).sort()).toEqual(["ses_fixA0001", "ses_fixB0001", "ses_fixChild1", "ses_old0001"]);
    expect(sessions.find((s) => s.sourceSessionId === "ses_old0001")!.sourcePath).toBe(file);
    expect(warnings.map((w) => path.basename(w.file))).toEqual(["ses_bad0001.json"]);
  });
});
