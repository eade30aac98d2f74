/** The session_overview about paragraph on edge sessions (no turns, only errors, only subagents). */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { sessionOverview } from "@/lib/forensics/overview";
import type { SessionOverviewResult } from "@/lib/forensics/schema";
import { buildTestWorkspace, TEST_PROJECT_KEY } from "@/lib/testing/workspace-builder";
import { sessionAuditEvents } from "@/lib/ledger/session-audit";

const at = (minute: number) => `2026-05-12T01:${String(minute).padStart(2, "0")}:00Z`;
const apiError = (minute: number) => JSON.stringify({ type: "assistant", timestamp: at(minute), isApiErrorMessage: true, message: { role: "assistant", content: [{ type: "text", text: "API Error: 529 overloaded" }] } });
const subUser = (minute: number) => JSON.stringify({ type: "user", isSidechain: true, agentId: "a1", timestamp: at(minute), message: { role: "user", content: "Search the repo for TODOs" } });
const subCall = (minute: number) =>
  JSON.stringify({ type: "assistant", isSidechain: true, agentId: "a1", timestamp: at(minute), message: { role: "assistant", id: `s${minute}`, content: [{ type: "tool_use", id: `t${minute}`, name: "Grep", input: { pattern: "TODO" } }], usage: { input_tokens: 1, output_tokens: 2 } } });
const system = (minute: number) => JSON.stringify({ type: "system", timestamp: at(minute), content: "hook ran" });

/** Seed 004's adversarial cases for `about`: no turns, only errors, only subagent work. */
describe("session_overview about on edge sessions (seed 004: 0 turns, only errors, only subagent work)", () => {
  it("gives each one a sensible, deterministic paragraph", async () => {
    const root = await buildTestWorkspace([
      { ref: "S0001", content: "" },
      { ref: "S0002", content: [apiError(0), apiError(1)].join("\n") + "\n" },
      { ref: "S0003", content: system(0) + "\n" },
    ]);
    const side = path.join(root, "projects", TEST_PROJECT_KEY, "sessions", "claude-code", "s0003", "subagents");
    await fs.mkdir(side, { recursive: true });
    await fs.writeFile(path.join(side, "agent-a1.jsonl"), [subUser(1), subCall(2)].join("\n") + "\n");
    const ctx = createCoreContext(root, { now: () => new Date("2026-05-13T00:00:00Z") });
    const about = async (ref: string) => {
      const first = (await sessionOverview(ctx, { project_key: TEST_PROJECT_KEY, session_ref: ref }, sessionAuditEvents)) as SessionOverviewResult;
      const second = (await sessionOverview(ctx, { project_key: TEST_PROJECT_KEY, session_ref: ref }, sessionAuditEvents)) as SessionOverviewResult;
      expect(second.summary.about).toBe(first.summary.about);
      return first;
    };

    const empty = await about("S0001");
    expect(empty.summary.about).toBe("The transcript has no records. Session ended without a final agent reply.");
    expect(empty.summary).toMatchObject({ started_at: null, duration: null });

    const errors = await about("S0002");
    expect(errors.summary.about).toBe("No user message was recorded. 2 API errors. Session ended on an error.");
    expect(errors.summary.status).toBe("errored");
    expect(errors.summary.error_counts).toEqual({ api_error: 2 });

    const sub = await about("S0003");
    expect(sub.summary.about).toMatch(/^The main transcript has no user message; the work happened in 1 subagent transcript\. The agent searched the code once\./);
    expect(sub.diagnostics.subagents.count).toBe(1);
    expect(sub.diagnostics.events.subagent).toBe(2);
  });
});
