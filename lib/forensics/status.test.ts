/** Tests of how a session ended (status, last_response_preview) and list_sessions risk. */
import { appendFile } from "node:fs/promises";

import { describe, expect, it } from "vitest";

import { sessionAuditEvents } from "@/lib/ledger/session-audit";
import { getSessionRisk, RISK_WAIT_MAX_BYTES } from "@/lib/analysis/session-analysis";
import { createCoreContext } from "@/lib/context";
import { buildTestWorkspace, TEST_PROJECT_KEY } from "@/lib/testing/workspace-builder";
import { listSessions } from "@/lib/forensics/__fixtures__/list-sessions";
import type { ListSessionsResult } from "@/lib/workspace/schema";
import { resolveSession } from "@/lib/workspace/sessions";

const at = (minute: number) => `2026-05-12T01:${String(minute).padStart(2, "0")}:00Z`;
const user = (minute: number, text: string) => JSON.stringify({ type: "user", timestamp: at(minute), message: { role: "user", content: text } });
const reply = (minute: number, text: string) => JSON.stringify({ type: "assistant", timestamp: at(minute), message: { role: "assistant", id: `m${minute}`, content: [{ type: "text", text }], usage: { input_tokens: 1, output_tokens: 2 } } });
const apiError = (minute: number) => JSON.stringify({ type: "assistant", timestamp: at(minute), isApiErrorMessage: true, message: { role: "assistant", content: [{ type: "text", text: "API Error: 529 overloaded" }] } });

describe("list_sessions status and last_response_preview (seed 004, adapted)", () => {
  it("is completed after a reply, errored after an API error, active only while its last record is recent", async () => {
    const root = await buildTestWorkspace([
      { ref: "S0001", content: [user(0, "hi"), reply(1, "Hello   there,\nhow can I help?")].join("\n") + "\n" },
      { ref: "S0002", content: [user(0, "hi"), reply(1, "first"), user(2, "again"), apiError(3)].join("\n") + "\n" },
      { ref: "S0003", content: [user(0, "hi"), reply(1, "first"), user(2, "still there?")].join("\n") + "\n" },
    ]);
    const soon = createCoreContext(root, { now: () => new Date("2026-05-12T01:05:00Z") });
    const live = (await listSessions(soon, { project_key: TEST_PROJECT_KEY, sort: "session_ref", order: "asc" })) as ListSessionsResult;
    expect(live.sessions.map((s) => s.status)).toEqual(["active", "active", "active"]);
    const later = createCoreContext(root, { now: () => new Date("2026-05-12T02:00:00Z") });
    const list = (await listSessions(later, { project_key: TEST_PROJECT_KEY, sort: "session_ref", order: "asc" })) as ListSessionsResult;
    expect(list.sessions.map((s) => [s.session_ref, s.status, s.last_response_preview])).toEqual([
      ["S0001", "completed", "Hello there, how can I help?"],
      ["S0002", "errored", "first"],
      // Issue 28: a turn without a reply, long ago, is a finished session, not an active one.
      ["S0003", "completed", "first"],
    ]);
    // The cached list recomputes a "recent" status when the clock moves on.
    const again = (await listSessions(later, { project_key: TEST_PROJECT_KEY, sort: "session_ref", order: "asc", limit: 1 })) as ListSessionsResult;
    expect(again.sessions[0]!.status).toBe("completed");
  });
});

describe("session ending from the records (issue 28)", () => {
  const command = (minute: number, name: string) => JSON.stringify({ type: "user", timestamp: at(minute), message: { role: "user", content: `<command-name>/${name}</command-name>\n<command-message>${name}</command-message>\n<command-args></command-args>` } });
  const stdout = (minute: number, text: string) => JSON.stringify({ type: "user", timestamp: at(minute), message: { role: "user", content: `<local-command-stdout>${text}</local-command-stdout>` } });

  it("a reply followed by /export and /exit ended with the reply; /exit alone after a question is a user exit; neither is active while recent", async () => {
    const root = await buildTestWorkspace([
      { ref: "S0001", content: [user(0, "hi"), reply(1, "done it"), command(2, "export"), stdout(2, "Conversation exported"), command(3, "exit"), stdout(3, "Bye!")].join("\n") + "\n" },
      { ref: "S0002", content: [user(0, "hi"), reply(1, "first"), user(2, "and now?"), command(3, "exit")].join("\n") + "\n" },
      { ref: "S0003", content: [user(0, "hi"), reply(1, "first"), command(2, "export")].join("\n") + "\n" },
    ]);
    const soon = createCoreContext(root, { now: () => new Date("2026-05-12T01:05:00Z") });
    const live = (await listSessions(soon, { project_key: TEST_PROJECT_KEY, sort: "session_ref", order: "asc" })) as ListSessionsResult;
    // S0003's last record is recent and no /exit follows: still active.
    expect(live.sessions.map((s) => [s.session_ref, s.status, s.last_response_preview])).toEqual([["S0001", "completed", "done it"], ["S0002", "completed", "first"], ["S0003", "active", "first"]]);
    const later = createCoreContext(root, { now: () => new Date("2026-05-12T03:00:00Z") });
    const list = (await listSessions(later, { project_key: TEST_PROJECT_KEY, sort: "session_ref", order: "asc" })) as ListSessionsResult;
    expect(list.sessions.map((s) => s.status)).toEqual(["completed", "completed", "completed"]);
    const { sessionOverview } = await import("@/lib/forensics/overview");
    const about = async (ref: string) => ((await sessionOverview(later, { project_key: TEST_PROJECT_KEY, session_ref: ref }, sessionAuditEvents)) as { summary: { about: string } }).summary.about;
    expect(await about("S0001")).toMatch(/Session ended cleanly with an agent reply\.$/);
    expect(await about("S0002")).toMatch(/Session ended with the user's \/exit before an agent reply\.$/);
  });
});

describe("list_sessions risk of a large session never analysed (issue 13)", () => {
  // A session past RISK_WAIT_MAX_BYTES: replies whose cache reads fall twice (two context resets).
  const pad = "x".repeat(8000);
  const usage = (cacheRead: number) => ({ input_tokens: 1, output_tokens: 2, cache_read_input_tokens: cacheRead, cache_creation_input_tokens: 0 });
  const big = (i: number, cacheRead: number) => JSON.stringify({ type: "assistant", timestamp: at(1), message: { role: "assistant", id: `m${i}`, content: [{ type: "text", text: pad }], usage: usage(cacheRead) } });
  const workspace = async (): Promise<string> => {
    const lines = [user(0, "start")];
    let bytes = 0;
    for (let i = 0; bytes < RISK_WAIT_MAX_BYTES + (1 << 20); i++) {
      const line = big(i, i === 3000 || i === 6000 ? 1_000 : 50_000 + i);
      lines.push(line);
      bytes += line.length + 1;
    }
    return buildTestWorkspace([
      { ref: "S0001", content: [user(0, "hi"), reply(1, "small")].join("\n") + "\n" },
      { ref: "S0002", content: lines.join("\n") + "\n" },
    ]);
  };

  it("gives a one-shot process (the CLI) its risk at once: it could not ask again", async () => {
    const ctx = createCoreContext(await workspace(), { now: () => new Date("2026-05-12T02:00:00Z"), oneShot: true });
    const list = (await listSessions(ctx, { project_key: TEST_PROJECT_KEY, sort: "session_ref", order: "asc" })) as ListSessionsResult;
    expect(list.risk_pending).toEqual([]);
    expect(list.sessions.map((s) => [s.session_ref, s.risk_level, s.reset_count])).toEqual([["S0001", "low", 0], ["S0002", "high", 2]]);
  }, 60_000);

  it("lists it at once with risk pending, and gives its risk once the analysis that started has ended", async () => {
    const root = await workspace();
    const ctx = createCoreContext(root, { now: () => new Date("2026-05-12T02:00:00Z") });
    const input = { project_key: TEST_PROJECT_KEY, sort: "session_ref", order: "asc" };
    const first = (await listSessions(ctx, input)) as ListSessionsResult;
    expect(first.risk_pending).toEqual(["S0002"]);
    expect(first.sessions.map((s) => [s.session_ref, s.risk_level, s.reset_count])).toEqual([["S0001", "low", 0], ["S0002", null, null]]);
    // A risk filter leaves the pending session out until its risk is known.
    expect(((await listSessions(ctx, { ...input, risk: "high" })) as ListSessionsResult).total).toBe(0);
    // The analysis the first call started: waiting for the same file version joins it.
    const session = await resolveSession(ctx, TEST_PROJECT_KEY, "S0002");
    if (!session.ok) throw new Error("S0002 must resolve");
    expect(await getSessionRisk(ctx, session.session)).toEqual({ risk_level: "high", reset_count: 2 });
    const later = (await listSessions(ctx, input)) as ListSessionsResult;
    expect(later.risk_pending).toEqual([]);
    expect(later.sessions.map((s) => [s.session_ref, s.risk_level, s.reset_count])).toEqual([["S0001", "low", 0], ["S0002", "high", 2]]);
    expect(((await listSessions(ctx, { ...input, risk: "high" })) as ListSessionsResult).sessions.map((s) => s.session_ref)).toEqual(["S0002"]);
    // The session grows (a live one): its earlier risk is served while the new version is analysed.
    await appendFile(session.session.filePath, [big(9000, 90_000), big(9001, 1_000), big(9002, 90_000)].join("\n") + "\n");
    const grown = (await listSessions(ctx, input)) as ListSessionsResult;
    expect(grown.risk_pending).toEqual([]);
    expect(grown.sessions[1]).toMatchObject({ session_ref: "S0002", risk_level: "high", reset_count: 2 });
    expect(await getSessionRisk(ctx, session.session)).toEqual({ risk_level: "high", reset_count: 3 });
    expect(((await listSessions(ctx, input)) as ListSessionsResult).sessions[1]).toMatchObject({ risk_level: "high", reset_count: 3 });
  }, 60_000);
});
