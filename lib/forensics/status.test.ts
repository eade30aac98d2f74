import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { buildTestWorkspace, TEST_PROJECT_KEY } from "@/lib/testing/workspace-builder";
import { listSessions } from "@/lib/forensics/list-sessions";
import type { ListSessionsResult } from "@/lib/workspace/schema";

const at = (minute: number) => `2026-05-12T01:${String(minute).padStart(2, "0")}:00Z`;
const user = (minute: number, text: string) => JSON.stringify({ type: "user", timestamp: at(minute), message: { role: "user", content: text } });
const reply = (minute: number, text: string) => JSON.stringify({ type: "assistant", timestamp: at(minute), message: { role: "assistant", id: `m${minute}`, content: [{ type: "text", text }], usage: { input_tokens: 1, output_tokens: 2 } } });
const apiError = (minute: number) => JSON.stringify({ type: "assistant", timestamp: at(minute), isApiErrorMessage: true, message: { role: "assistant", content: [{ type: "text", text: "API Error: 529 overloaded" }] } });

describe("list_sessions status and last_response_preview (seed 004, adapted)", () => {
  it("is completed after a reply, errored after an API error, active without a reply or while recent", async () => {
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
      ["S0003", "active", "first"],
    ]);
    // The cached list recomputes a "recent" status when the clock moves on.
    const again = (await listSessions(later, { project_key: TEST_PROJECT_KEY, sort: "session_ref", order: "asc", limit: 1 })) as ListSessionsResult;
    expect(again.sessions[0]!.status).toBe("completed");
  });
});
