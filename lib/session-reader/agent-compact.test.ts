/** Agent sessions in compact records and the viewer (issue 38): every agent's lines read off the whole file's replay. */
import fs from "node:fs/promises";
import path from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import { createCoreContext, type CoreContext } from "@/lib/context";
import { physicalLines } from "@/lib/jsonl/text-lines";
import { compactAgentBody } from "@/lib/session-reader/compact-agent";
import { readSessionLines } from "@/lib/session-reader/read-session-lines";
import { compactRecordCache } from "@/lib/session-reader/record-cache";
import type { CompactRecord, FullRecord, ViewerCompactRecord, ViewerFullRecord } from "@/lib/session-reader/schema";
import { agentEdits } from "@/lib/session-reader/viewer-extras";
import { readViewerLines } from "@/lib/session-reader/viewer-lines";
import { agentSource } from "@/lib/sources/agents";
import { prepareAgentsWorkspace } from "@/lib/testing/agents-workspace";
import { HAS_SHARED, makeTempDir, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { loadWorkspace } from "@/lib/workspace/load";
import { prepareWorkspace } from "@/lib/workspace/prepare";

const REPLAY = path.resolve("lib/sources/gemini-cli/__fixtures__/replay.jsonl");
const COPILOT_RESUMED = path.resolve("lib/sources/copilot-cli/__fixtures__/session-state/5f0c2a7e-3b1d-4c8e-9a6f-1d2e3f4a5b6c/events.jsonl");

type Session = { project_key: string; session_ref: string; source: string; session_path: string; file: string };

async function sessionsOf(ctx: CoreContext): Promise<Session[]> {
  const ws = await loadWorkspace(ctx);
  return ws.projects.flatMap((p) => p.rows.map((r) => ({ project_key: p.projectKey, session_ref: r.session_ref, source: r.source, session_path: r.session_path, file: path.join(p.dir, r.session_path) })));
}

async function compact(ctx: CoreContext, s: Session, start: number, end: number): Promise<Map<number, CompactRecord>> {
  const result = await readSessionLines(ctx, { project_key: s.project_key, session_ref: s.session_ref, start_line: start, end_line: end, mode: "compact" });
  if (result.status !== "ok") throw new Error(JSON.stringify(result));
  return new Map((result.records as CompactRecord[]).map((r) => [r.line, r]));
}

/** The fields a reader sees, without the line's bytes and hash. */
function seen(record: CompactRecord | undefined) {
  if (record === undefined) return undefined;
  const { raw_bytes: _bytes, raw_sha256: _sha, duplicate_of: _dup, line: _line, ...rest } = record;
  return rest;
}

describe.skipIf(!HAS_SHARED)(`compact records of the agents-home sessions${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  let ctx: CoreContext;
  let sessions: Session[];
  const one = (source: string, pathPart: string) => sessions.find((s) => s.source === source && s.session_path.includes(pathPart))!;

  beforeAll(async () => {
    ({ ctx } = await prepareAgentsWorkspace());
    sessions = await sessionsOf(ctx);
  });

  it("Copilot CLI: the run's start and shutdown, the prompt and the reply, each with the agent's record type and role", async () => {
    const records = await compact(ctx, one("copilot-cli", "87ecd1bd"), 1, 8);
    expect(seen(records.get(1))).toMatchObject({ record_type: "session.start", role: "system", summary: "Session started: Copilot CLI 1.0.65 in /home/ngsupb/repos/twitech/devchain (master)" });
    expect(seen(records.get(4))).toEqual({
      record_type: "user.message",
      role: "user",
      content_kinds: ["text"],
      summary: "User: Reply with exactly the two characters: ok",
      text_preview: "Reply with exactly the two characters: ok",
      tool_uses: [],
      tool_results: [],
      truncated: false,
    });
    expect(seen(records.get(6))).toMatchObject({ record_type: "assistant.message", role: "assistant", summary: "Assistant: ok", text_preview: "ok" });
    expect(seen(records.get(8))).toMatchObject({ record_type: "session.shutdown", role: "system", summary: "Run ended (routine) — gpt-5-mini 11637 in / 79 out, 0 premium requests" });
    // The system prompt is the agent's own text: bounded (head 320 + tail 160 bytes), marked trimmed.
    const system = records.get(3)!;
    expect(system.text_preview).toContain("\n...[trimmed]...\n");
    expect(system.truncated).toBe(true);
  });

  it("Gemini CLI: a tool call with its result's file and status, an API error, the message text without the tool's words", async () => {
    const records = await compact(ctx, one("gemini-cli", "django-control-flash"), 1, 20);
    const read = records.get(16)!;
    expect(read.record_type).toBe("gemini");
    expect(read.role).toBe("assistant");
    expect(read.summary).toBe("read_file TASK.md");
    // Its thoughts are left out (seed 000: reasoning omitted entirely, the record trimmed).
    expect(read.content_kinds).toEqual(["text", "tool_use", "tool_result", "thinking"]);
    expect(read.truncated).toBe(true);
    expect(read.tool_uses).toEqual([{ name: "read_file", input_summary: '{"file_path": "TASK.md"}', truncated: false }]);
    expect(read.tool_results).toHaveLength(1);
    expect(read.tool_results[0]).toMatchObject({ kind: "file", status: "ok", file_path: "TASK.md", command: null });
    expect(read.tool_results[0]!.preview).toMatch(/^# SWE-Bench Target \(Proxy\)/);
    expect(read.text_preview).toMatch(/^I will begin by reading the `TASK.md` file/);
    expect(read.text_preview).not.toContain("SWE-Bench Target");
    expect(seen(records.get(4))).toMatchObject({ record_type: "error", role: "system", summary: "Error: [API Error: Requested entity was not found.]" });
    expect(seen(records.get(15))).toMatchObject({ record_type: "user", role: "user", summary: "User: hello", text_preview: "hello" });
  });

  it("the viewer: an edit or a write call of any agent gives its diff, told by its input's shape", async () => {
    const s = one("opencode", "ses_6290e7826ffeR7mF2FTlXM52x8");
    const view = await readViewerLines(ctx, { projectKey: s.project_key, sessionRef: s.session_ref, start: 6, end: 6, mode: "compact" });
    expect((view.records as ViewerCompactRecord[])[0]!.view.edits).toEqual([{ tool: "write", file_path: "/Users/cam/tmp/a/test.txt", old_string: "", new_string: ":)", clipped: false }]);
    const copilot = agentSource("copilot-cli")!.parseLines(physicalLines(await fs.readFile(COPILOT_RESUMED, "utf8")), "events.jsonl");
    expect(agentEdits(copilot.records[16]!)).toEqual([{ tool: "edit", file_path: "/home/dev/shop/api/src/cart.ts", old_string: "return sum - 3;", new_string: "return sum;", clipped: false }]);
    expect(agentEdits(copilot.records[7]!)).toEqual([]);
  });

  it("OpenCode: the prompt on the message line that starts it (its words are on the part after it), a tool part with its file", async () => {
    const records = await compact(ctx, one("opencode", "ses_6290e7826ffeR7mF2FTlXM52x8"), 1, 11);
    expect(seen(records.get(2))).toMatchObject({ record_type: "message:user", role: "user", summary: 'User: add a file, test.txt, with ":)" in it', text_preview: 'add a file, test.txt, with ":)" in it' });
    expect(seen(records.get(6))).toEqual({
      record_type: "part:tool",
      role: "tool",
      content_kinds: ["tool_use", "tool_result"],
      summary: "Write /Users/cam/tmp/a/test.txt",
      text_preview: null,
      tool_uses: [{ name: "write", input_summary: '{"content": ":)", "filePath": "/Users/cam/tmp/a/test.txt"}', truncated: false }],
      tool_results: [{ kind: "file", status: "ok", file_path: "/Users/cam/tmp/a/test.txt", command: null, preview: "", raw_bytes: 0, truncated: false }],
      truncated: false,
    });
    expect(seen(records.get(5))).toMatchObject({ record_type: "part:step-start", summary: "Step start", text_preview: null, content_kinds: [] });
  });

  it("Aider: the run's start, a prompt, a reply, edits applied and skipped (an error) on Markdown lines", async () => {
    const records = await compact(ctx, one("aider", "14-01-00"), 1, 16);
    expect(seen(records.get(1))).toMatchObject({ record_type: "run-header", role: "system", summary: "Aider run started 2026-06-09 14:01:00" });
    expect(seen(records.get(3))).toMatchObject({ record_type: "prompt", role: "user", summary: "User: add a retry to the webhook", text_preview: "add a retry to the webhook" });
    expect(seen(records.get(4))).toMatchObject({ record_type: "reply", role: "assistant", text_preview: "I'll add exponential backoff to the webhook handler." });
    expect(seen(records.get(15))).toEqual({
      record_type: "tool-output",
      role: "tool",
      content_kinds: ["tool_use", "tool_result"],
      summary: "Skipping edits to src/other.py",
      text_preview: null,
      tool_uses: [{ name: "edit", input_summary: '{"path": "src/other.py"}', truncated: false }],
      tool_results: [{ kind: "file", status: "error", file_path: "src/other.py", command: null, preview: "Skipping edits to src/other.py", raw_bytes: 30, truncated: false }],
      truncated: false,
    });
    expect(seen(records.get(2))).toMatchObject({ record_type: "blank", role: null, summary: "blank record.", text_preview: null });
  });

  it("the viewer: Aider's Markdown lines are text lines in full mode, replies read as messages, blank lines are progress", async () => {
    const s = one("aider", "14-01-00");
    const full = await readViewerLines(ctx, { projectKey: s.project_key, sessionRef: s.session_ref, start: 1, end: 16, mode: "full" });
    const raw = physicalLines(await fs.readFile(s.file, "utf8"));
    const lines = full.records as ViewerFullRecord[];
    expect(lines.map((r) => r.raw_line)).toEqual(raw);
    expect(lines.every((r) => r.view.textLine === true)).toBe(true);
    const view = await readViewerLines(ctx, { projectKey: s.project_key, sessionRef: s.session_ref, start: 1, end: 16, mode: "compact" });
    const byLine = new Map((view.records as ViewerCompactRecord[]).map((r) => [r.line, r.view]));
    expect(byLine.get(1)).toMatchObject({ group: "system", timestamp: expect.stringMatching(/^2026-06-09T\d\d:01:00(\.000)?Z$/) });
    expect(byLine.get(2)).toMatchObject({ group: "progress" });
    expect(byLine.get(2)!.message).toBeUndefined();
    expect(byLine.get(3)).toMatchObject({ group: "conversation", message: true, headline: null });
    expect(byLine.get(4)).toMatchObject({ group: "conversation", message: true });
    expect(byLine.get(15)).toMatchObject({ group: "conversation", headline: "Skipping edits to src/other.py" });
    // A JSONL agent's lines are JSON: not text lines.
    const copilot = one("copilot-cli", "87ecd1bd");
    const json = await readViewerLines(ctx, { projectKey: copilot.project_key, sessionRef: copilot.session_ref, start: 1, end: 2, mode: "full" });
    expect((json.records as ViewerFullRecord[]).map((r) => r.view.textLine)).toEqual([undefined, undefined]);
    expect((json.records as ViewerFullRecord[])[0]!.view.group).toBe("system");
  });
});

describe("a Gemini session with a rewind and a replacement, prepared through --gemini-cli", () => {
  let ctx: CoreContext;
  let session: Session;

  beforeAll(async () => {
    const root = await makeTempDir("casefile-agent-compact-");
    ctx = createCoreContext(root, { oneShot: true });
    await prepareWorkspace(ctx, { claudeRoots: [], codexRoots: [], agentRoots: { "gemini-cli": [REPLAY] } });
    session = (await sessionsOf(ctx))[0]!;
  });

  const expected = new Map<number, string>([
    [5, "Replaced by line 6: run_shell_command: npm test"],
    [6, "Replaces line 5: run_shell_command: npm test (error); read_file packages/app/src/math.test.ts"],
    [8, "Rewound by the user (line 10): User: Explain the failure in src/math.test.ts"],
    [9, "Rewound by the user (line 10): Gemini: The add() test expects 3 but gets 4."],
    [10, "Rewind by the user: to message u-2 (line 8): 2 messages dropped"],
    [11, "Summary: Run the app tests and explain a failure"],
  ]);

  it("marks rewound and replaced messages in read_session_lines, and the line that rewound", async () => {
    expect(session.source).toBe("gemini-cli");
    const records = await compact(ctx, session, 1, 13);
    for (const [line, summary] of expected) expect([line, records.get(line)!.summary]).toEqual([line, summary]);
    expect(records.get(8)).toMatchObject({ record_type: "user", role: "user", text_preview: "Explain the failure in src/math.test.ts" });
    // The newer version has the calls and results, the failed shell command marked as an error.
    const six = records.get(6)!;
    expect(six.tool_uses.map((u) => u.name)).toEqual(["run_shell_command", "read_file"]);
    expect(six.tool_results.map((r) => [r.kind, r.status, r.file_path, r.command])).toEqual([
      ["command", "error", "packages/app", "npm test"],
      ["file", "ok", "packages/app/src/math.test.ts", null],
    ]);
    expect(six.text_preview).toBe("I will run the test suite."); // its thought ("Planning: …") omitted, as seed 000 has it
    expect(six.content_kinds).toContain("thinking");
    expect(records.get(5)!.tool_uses).toEqual([]);
  });

  it("marks them in a window that does not hold the line that did it, and again from the stored blocks", async () => {
    const window = await compact(ctx, session, 8, 9);
    expect([...window.values()].map((r) => r.summary)).toEqual([expected.get(8), expected.get(9)]);
    const older = await compact(ctx, session, 5, 5);
    expect(older.get(5)!.summary).toBe(expected.get(5));
    // With the in-memory records dropped, the blocks the first reads stored give the same records.
    const first = [...(await compact(ctx, session, 1, 13)).values()];
    compactRecordCache.clear();
    expect([...(await compact(ctx, session, 1, 13)).values()]).toEqual(first);
  });

  it("full mode returns the raw lines", async () => {
    const result = await readSessionLines(ctx, { project_key: session.project_key, session_ref: session.session_ref, start_line: 8, end_line: 10, mode: "full" });
    const raw = physicalLines(await fs.readFile(REPLAY, "utf8"));
    expect(result.status === "ok" && (result.records as FullRecord[]).map((r) => r.raw_line)).toEqual(raw.slice(7, 10));
  });

  it("the viewer shows the marks: a message's summary, a tool line's headline; times from the records", async () => {
    const view = await readViewerLines(ctx, { projectKey: session.project_key, sessionRef: session.session_ref, start: 1, end: 13, mode: "compact" });
    const byLine = new Map((view.records as ViewerCompactRecord[]).map((r) => [r.line, r]));
    expect(byLine.get(6)!.view).toMatchObject({ headline: expected.get(6), group: "conversation", timestamp: "2026-04-10T09:00:07.000Z" });
    expect(byLine.get(9)!.view).toMatchObject({ headline: null, message: true, group: "conversation" });
    expect(byLine.get(9)!.summary).toBe(expected.get(9));
    expect(byLine.get(10)!.view.group).toBe("system");
    expect(byLine.get(6)!.view.edits).toEqual([]);
  });
});

describe("events only the agents record, in the compact summary", () => {
  it("Copilot CLI: a resume between two runs, each run's shutdown; a tool completion finds its call's command on an earlier line", async () => {
    const transcript = agentSource("copilot-cli")!.parseLines(physicalLines(await fs.readFile(COPILOT_RESUMED, "utf8")), "events.jsonl");
    const body = (line: number) => compactAgentBody(transcript, line)!;
    expect(body(24).summary).toBe("Session resumed (model gpt-5-mini)");
    expect(body(23).summary).toBe("Run ended (routine) — claude-sonnet-4.5 30000 in / 200 out, 2 premium requests");
    expect(body(14).tool_results.map((r) => [r.kind, r.command, r.status])).toEqual([["command", "npm test -- cart", "ok"]]);
    expect(body(19).tool_results.map((r) => [r.kind, r.file_path, r.status])).toEqual([["file", "/home/dev/shop/api/src/cart.ts", "error"]]);
    expect(body(14).text_preview).toBeNull();
  });

  it("OpenCode: a session reverted by the user marks its line and every undone line", () => {
    const lines = [
      { id: "ses_r1", title: "Undo test", directory: "/w", version: "1.2.10", time: { created: 1767225600000 }, revert: { messageID: "msg_2" } },
      { id: "msg_1", role: "user", time: { created: 1767225601000 } },
      { id: "prt_1", messageID: "msg_1", type: "text", text: "first prompt" },
      { id: "msg_2", role: "user", time: { created: 1767225602000 } },
      { id: "prt_2", messageID: "msg_2", type: "text", text: "second prompt" },
    ].map((o) => JSON.stringify(o));
    const transcript = agentSource("opencode")!.parseLines(lines, "ses_r1.jsonl");
    const body = (line: number) => compactAgentBody(transcript, line)!;
    expect(body(1).summary).toBe("Rewind by the user: reverted to msg_2: it and everything after it are undone — Session: Undo test");
    expect(body(2).summary).toBe("User: first prompt");
    expect(body(4).summary).toBe("Rewound by the user (line 1): User: second prompt");
    expect(body(4).text_preview).toBe("second prompt");
    expect(body(5).summary).toBe("Rewound by the user (line 1): User: second prompt");
  });

  it("Aider: a prompt over several lines is whole on the line that starts it", () => {
    const transcript = agentSource("aider")!.parseLines(["# aider chat started at 2026-06-09 14:01:00", "", "#### fix the bug", "#### in src/a.py", "Done."], "a.md");
    expect(compactAgentBody(transcript, 3)).toMatchObject({ record_type: "prompt", role: "user", text_preview: "fix the bug\nin src/a.py" });
    expect(compactAgentBody(transcript, 4)).toMatchObject({ text_preview: "in src/a.py" });
    expect(compactAgentBody(transcript, 1)!.summary).toBe("Aider run started 2026-06-09 14:01:00");
    expect(compactAgentBody(transcript, 9)).toBeNull();
  });
});
