/**
 * Session facts and forensics of agent sessions read through the source contract (issue 38):
 * list rows, session_overview, reconstruct_session, turn usage, analysis and header facts of a
 * session of each agent (the shared agents home), and the Timeline of a replayed session with a
 * rewind and a replacement and of a resumed session with two runs (the readers' fixtures).
 */
import fs from "node:fs/promises";
import path from "node:path";

import { beforeAll, describe, expect, it } from "vitest";

import type { AnalyzeSessionResult } from "@/lib/analysis/schema";
import { createCoreContext, type CoreContext } from "@/lib/context";
import type { ReconstructSessionResult, SessionOverviewResult, TimelineRow } from "@/lib/forensics/schema";
import { sessionEnding } from "@/lib/forensics/status";
import { prepareAgentsWorkspace } from "@/lib/testing/agents-workspace";
import { HAS_SHARED, makeTempDir, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { callTool } from "@/lib/tools/registry";
import { loadWorkspace } from "@/lib/workspace/load";
import { prepareWorkspace } from "@/lib/workspace/prepare";
import { getSessionDetail } from "@/lib/workspace/projects";
import type { ListSessionsResult, SessionListItem } from "@/lib/workspace/schema";
import { listSessionTurns } from "@/lib/workspace/session-turns";
import { getSession, getWorkspaceLineIndex } from "@/lib/workspace/sessions";

/** Long after every session here: none is active. */
const NOW = new Date("2026-12-01T00:00:00Z");
const GEMINI_REPLAY = path.resolve("lib/sources/gemini-cli/__fixtures__/replay.jsonl");
const COPILOT_STATE = path.resolve("lib/sources/copilot-cli/__fixtures__/session-state");

type Ref = { project_key: string; session_ref: string };

/** Each session of the workspace by its agent's session id. */
async function refsById(ctx: CoreContext): Promise<Map<string, Ref>> {
  const refs = new Map<string, Ref>();
  for (const p of (await loadWorkspace(ctx)).projects) for (const r of p.rows) refs.set(r.source_session_id, { project_key: p.projectKey, session_ref: r.session_ref });
  return refs;
}

function tools(ctx: CoreContext) {
  const call = (name: string, input: Record<string, unknown>) => callTool(ctx, name, input, { door: "cli" });
  return {
    row: async (ref: Ref): Promise<SessionListItem> => {
      const list = (await call("list_sessions", { project_key: ref.project_key })) as ListSessionsResult;
      return list.sessions.find((s) => s.session_ref === ref.session_ref)!;
    },
    overview: async (ref: Ref) => (await call("session_overview", { ...ref })) as SessionOverviewResult,
    timeline: async (ref: Ref, over: Record<string, unknown> = {}) => (await call("reconstruct_session", { ...ref, limit: 500, include_headlines: true, include_prompts: true, ...over })) as ReconstructSessionResult,
    analysis: async (ref: Ref) => (await call("analyze_session", { ...ref })) as AnalyzeSessionResult,
  };
}

/** The rows of the agent's own events: `[line, event_type]`, in timeline order. */
function eventRows(timeline: TimelineRow[]): [number, string][] {
  return timeline.filter((r) => typeof r.payload.event === "object").map((r) => [r.line, r.event_type]);
}

describe.skipIf(!HAS_SHARED)(`agent sessions of the shared agents home${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  let ctx: CoreContext;
  let refs: Map<string, Ref>;
  let t: ReturnType<typeof tools>;
  beforeAll(async () => {
    const { root } = await prepareAgentsWorkspace();
    ctx = createCoreContext(root, { oneShot: true, now: () => NOW });
    refs = await refsById(ctx);
    t = tools(ctx);
  }, 60_000);
  const ref = (id: string) => refs.get(id)!;

  it("Gemini CLI: list row, about, tools by family and the API errors", async () => {
    const gemini = ref("209f5a02-005a-47f8-a0f9-a959f14ca9e7");
    expect(await t.row(gemini)).toMatchObject({
      source: "gemini-cli",
      first_user_message: "hello",
      status: "completed",
      started_at: "2026-03-26T04:30:11.995Z",
      ended_at: "2026-03-26T04:40:51.997Z",
      output_tokens: 4189, // without the 20,518 thought tokens (reasoning, in the total), as ccusage counts them
      total_tokens: 1760611,
    });
    expect((await t.row(gemini)).last_response_preview).toMatch(/^I'll finalize my work, satisfied with the fix/);
    const { summary, diagnostics } = await t.overview(gemini);
    expect(summary.about).toBe(
      'User asked: "hello" and sent 3 more messages. The agent ran 18 commands, searched the code 11 times, made 8 edits and read 7 files. 3 error messages. Session ended cleanly with an agent reply.',
    );
    expect(summary.top_user_messages.map((m) => [m.line, m.text])).toEqual([[3, "hello"], [7, "hello"], [11, "hello"], [15, "hello"]]);
    expect(summary.errors.map((e) => [e.type, e.line, e.message])).toEqual([4, 8, 12].map((line) => ["error", line, "Error: [API Error: Requested entity was not found.]"]));
    expect(diagnostics.tools.by_family).toEqual({ read: { called: 7, failed: 0 }, edit: { called: 8, failed: 0 }, run: { called: 18, failed: 0 }, search: { called: 11, failed: 0 } });
    expect(diagnostics.tools.by_tool.run_shell_command).toEqual({ called: 18, succeeded: 18, failed: 0 });
    expect(diagnostics.files_touched?.files).toContain("django_repo/django/core/validators.py");
    expect(summary.not_recorded).toEqual(["cost", "cache_write"]);
  });

  it("Copilot CLI: the prompt, the reply and the run's start, model change and shutdown in the Timeline", async () => {
    const copilot = ref("87ecd1bd-04f8-4b58-b837-a583e194be8f");
    expect(await t.row(copilot)).toMatchObject({
      source: "copilot-cli",
      first_user_message: "Reply with exactly the two characters: ok",
      last_response_preview: "ok",
      status: "completed",
      started_at: "2026-06-27T16:20:57.566Z",
      ended_at: "2026-06-27T16:21:11.825Z",
      total_tokens: 11716,
    });
    const { summary } = await t.overview(copilot);
    expect(summary.about).toBe('User asked: "Reply with exactly the two characters: ok". The agent answered without using tools. Session ended cleanly with an agent reply.');
    const timeline = await t.timeline(copilot);
    expect(eventRows(timeline.timeline)).toEqual([[1, "run_start"], [2, "model_change"], [8, "shutdown"]]);
    expect(timeline.timeline.map((r) => r.payload.headline)).toContain("Assistant: ok");
  });

  it("OpenCode: the prompt from its text part, the write as an edit, the file touched", async () => {
    const opencode = ref("ses_6290e7826ffeR7mF2FTlXM52x8");
    expect(await t.row(opencode)).toMatchObject({ source: "opencode", first_user_message: 'add a file, test.txt, with ":)" in it', status: "completed", total_tokens: 22999, last_response_preview: null });
    const { summary, diagnostics } = await t.overview(opencode);
    expect(summary.about).toMatch(/^User asked: "add a file, test\.txt, with ":\)" in it"\. The agent made 1 edit\./);
    expect(diagnostics.tools.by_tool).toEqual({ write: { called: 1, succeeded: 1, failed: 0 } });
    expect(diagnostics.files_touched).toEqual({ files: ["/Users/cam/tmp/a/test.txt"], total: 1 });
    // Parts have no time of their own: their rows say so (null), in line order after their message.
    const timeline = await t.timeline(opencode);
    expect(timeline.timeline.map((r) => [r.line, r.timestamp === null])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((l) => [l, [3, 5, 7, 8, 10, 11].includes(l)]));
  });

  it("Aider: ends on a skipped edit (errored), its rows carry the run's start and the Timeline says so", async () => {
    const aider = ref("myrepo-20260609T140100");
    expect(await t.row(aider)).toMatchObject({
      source: "aider",
      first_user_message: "add a retry to the webhook",
      last_response_preview: "Wrap the call in a loop.",
      status: "errored",
      started_at: "2026-06-09T14:01:00.000Z",
      ended_at: "2026-06-09T14:01:00.000Z",
      // No token report in this run: no figures, not zeros.
      total_tokens: null,
    });
    const { summary, diagnostics } = await t.overview(aider);
    expect(summary.about).toBe('User asked: "add a retry to the webhook" and sent 1 more message. The agent made 4 edits (1 failed). 1 failed tool call. Session ended on an error.');
    expect(summary.errors).toEqual([{ type: "tool_error", message: "edit failed", source: "main", file: "sessions/aider/myrepo.2026-06-09T14-01-00.md", line: 15, timestamp: "2026-06-09T14:01:00.000Z" }]);
    expect(summary.warnings).toEqual([]);
    expect(summary.not_recorded).toEqual(expect.arrayContaining(["subagents", "per-line times"]));
    expect(diagnostics.tools.by_tool.edit).toEqual({ called: 4, succeeded: 3, failed: 1 });
    const timeline = await t.timeline(aider);
    expect(timeline.time_note).toBe("Times are the run's start: this agent records no time per line.");
    expect(timeline.not_recorded).toContain("per-line times");
    expect(new Set(timeline.timeline.map((r) => r.timestamp))).toEqual(new Set(["2026-06-09T14:01:00.000Z"]));
    expect(timeline.timeline.map((r) => r.line)).toEqual([1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
    expect(eventRows(timeline.timeline)).toEqual([[1, "run_start"]]);
    const analysis = await t.analysis(aider);
    expect(analysis).toMatchObject({ source: "aider", line_count: 16, reset_count: 0, token_points: [], reads: { value: null } });
  });
});

describe("agent fixtures: a replayed Gemini CLI session (rewind, replacement) and a resumed Copilot CLI session (two runs)", () => {
  let ctx: CoreContext;
  let refs: Map<string, Ref>;
  let t: ReturnType<typeof tools>;
  beforeAll(async () => {
    const home = await makeTempDir();
    const chats = path.join(home, "chats");
    await fs.mkdir(chats);
    await fs.copyFile(GEMINI_REPLAY, path.join(chats, "session-replay.jsonl"));
    ctx = createCoreContext(path.join(home, "ws"), { oneShot: true, now: () => NOW });
    await prepareWorkspace(ctx, { claudeRoots: [], codexRoots: [], agentRoots: { "gemini-cli": [chats], "copilot-cli": [COPILOT_STATE] } });
    refs = await refsById(ctx);
    t = tools(ctx);
  }, 60_000);

  it("the Gemini replay: a row for the replaced and replacing lines, for each rewound message and for the rewind", async () => {
    const gemini = refs.get("5e1f2a3b-0c4d-4e5f-8a9b-0c1d2e3f4a5b")!;
    expect(await t.row(gemini)).toMatchObject({ first_user_message: "Run the tests in packages/app", status: "completed", started_at: "2026-04-10T09:00:00.000Z", ended_at: "2026-04-10T09:02:00.000Z" });
    const { timeline, not_recorded, time_note } = await t.timeline(gemini);
    expect([not_recorded, time_note]).toEqual([["cost", "cache_write"], null]);
    expect(eventRows(timeline)).toEqual([[5, "replaced"], [6, "replacement"], [8, "rewound"], [9, "rewound"], [10, "rewind"]]);
    const at = (line: number, type: string) => timeline.find((r) => r.line === line && r.event_type === type)!;
    expect(at(10, "rewind").payload).toMatchObject({ event: { kind: "rewind", detail: "to message u-2 (line 8): 2 messages dropped" }, headline: "rewind: to message u-2 (line 8): 2 messages dropped" });
    expect(at(9, "gemini").payload.headline).toBe("Rewound by the user (line 10): Gemini: The add() test expects 3 but gets 4.");
    expect(at(5, "gemini").payload.headline).toBe("Replaced by line 6: run_shell_command: npm test");
    // An event row sits right after its record's row, with its time and turn.
    const i = timeline.findIndex((r) => r.line === 5 && r.event_type === "replaced");
    expect(timeline[i - 1]).toMatchObject({ line: 5, event_type: "gemini" });
    expect(timeline[i]).toMatchObject({ timestamp: "2026-04-10T09:00:07.000Z", actor: "system", turn_ref: "T0001" });
    // The event types filter like any other.
    expect((await t.timeline(gemini, { event_type: "rewound" })).timeline.map((r) => r.line)).toEqual([8, 9]);
    const { summary } = await t.overview(gemini);
    expect(summary.errors.map((e) => [e.type, e.line, e.message])).toEqual([["tool_error", 6, "run_shell_command failed"]]);
    expect(summary.warning_counts).toEqual({ source_warning: 2 });
    // Gemini records no cache creation: its token points say so (null), not 0.
    const analysis = await t.analysis(gemini);
    expect(analysis.token_points).toEqual([
      { line: 6, cache_read: 8000, cache_creation: null, input: 4010, output: 190 },
      { line: 9, cache_read: 12000, cache_creation: null, input: 2000, output: 90 },
    ]);
  });

  it("the resumed Copilot session: both runs' start, resume and shutdowns in the Timeline, usage per turn, active only while recent", async () => {
    const copilot = refs.get("5f0c2a7e-3b1d-4c8e-9a6f-1d2e3f4a5b6c")!;
    const row = await t.row(copilot);
    expect(row).toMatchObject({
      first_user_message: "Fix the failing cart test",
      last_response_preview: "All 42 tests pass.",
      status: "completed",
      started_at: "2026-07-01T09:00:00.100Z",
      ended_at: "2026-07-02T14:00:30.000Z",
      total_tokens: 44600,
    });
    const { timeline } = await t.timeline(copilot);
    expect(eventRows(timeline)).toEqual([[1, "run_start"], [2, "model_change"], [23, "shutdown"], [24, "resume"], [25, "model_change"], [33, "shutdown"]]);
    expect(timeline.find((r) => r.event_type === "resume")).toMatchObject({ timestamp: "2026-07-02T14:00:00.000Z", turn_ref: "T0001", payload: { event: { kind: "resume" } } });
    const { summary, diagnostics } = await t.overview(copilot);
    expect(summary.about).toBe(
      'User asked: "Fix the failing cart test" and sent 1 more message. The agent ran 2 commands, read 1 file and made 1 edit (1 failed). 1 failed tool call and 1 error message. 2 reader warnings. Session ended cleanly with an agent reply.',
    );
    expect(diagnostics.tools.by_tool).toEqual({ bash: { called: 2, succeeded: 2, failed: 0 }, edit: { called: 1, succeeded: 0, failed: 1 }, view: { called: 1, succeeded: 1, failed: 0 } });
    // Usage is on each run's shutdown line: each turn gets its run's, and they add up to the session's.
    const turns = await listSessionTurns(ctx, { ...copilot, offset: 0, limit: 200, usage: true });
    expect(turns.turns.map((u) => u.total_tokens)).toEqual([30200, 14400]);
    expect(turns.turns.reduce((n, u) => n + u.total_tokens!, 0)).toBe(row.total_tokens);
    // A run's total is not one response: no token progression, no context reset from it, and the analysis says why.
    const analysis = await t.analysis(copilot);
    expect(analysis).toMatchObject({ token_points: [], reset_count: 0, risk_level: "low" });
    expect(analysis.token_notes[0]).toMatch(/^2 lines carry a run's total usage/);
    expect((await getSessionDetail(ctx, copilot.project_key, copilot.session_ref)).facts).toMatchObject({ model: "claude-sonnet-4.5", started_at: "2026-07-01T09:00:00.100Z" });
    // Active while the last record is from the last 10 minutes.
    const session = await getSession(ctx, copilot.project_key, copilot.session_ref);
    const index = await getWorkspaceLineIndex(ctx, session.filePath);
    const at = (iso: string) => sessionEnding(createCoreContext(ctx.workspaceRoot, { now: () => new Date(iso) }), session.filePath, index, session.row.source);
    expect(await at("2026-07-02T14:05:00Z")).toMatchObject({ status: "active", reason: "recent" });
    expect(await at("2026-07-02T14:11:00Z")).toMatchObject({ status: "completed", reason: "reply", last_response_preview: "All 42 tests pass." });
  });
});
