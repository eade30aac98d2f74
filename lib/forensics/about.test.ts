/** The session_overview about paragraph reads as a person would. */
import { describe, expect, it } from "vitest";

import { buildAbout } from "@/lib/forensics/overview";
import { sessionCounts } from "@/lib/forensics/counts";
import { emptyStats, type SessionStats } from "@/lib/forensics/scan";

function stats(text: string): SessionStats {
  return { ...emptyStats(), userMessages: [{ text, file: "s.jsonl", line: 7 }], userPromptCount: 1, eventsBySource: { main: 2, subagent: 0, tool_result: 0, audit: 0 }, mainReplies: 1 };
}

describe("the about paragraph reads as a person would (issue 12, item 4)", () => {
  it("quotes a slash command as typed, not its <command-…> tags", () => {
    const tagged = "<command-message>wsd:init</command-message>\n<command-name>/wsd:init</command-name>\n<command-args>--custom</command-args>";
    const about = buildAbout(stats(tagged), { status: "completed", reason: "reply", last_response_preview: null }, 0, sessionCounts(stats(tagged), 0), { text: "/wsd:init --custom", kind: "command" });
    expect(about).toMatch(/^User asked: "\/wsd:init --custom"\./);
    expect(about).not.toContain("<command");
  });

  it("writes counts with thousands separators, as the rest of the dashboard does (issue 29)", () => {
    const big: SessionStats = { ...stats("fix the login"), userPromptCount: 2_001, families: new Map([["read", { called: 12_345, failed: 1_200 }], ["search", { called: 1_000, failed: 0 }]]), errorCounts: new Map([["api_error", 1_001]]) };
    const about = buildAbout(big, { status: "completed", reason: "reply", last_response_preview: null }, 0, sessionCounts(big, 0), { text: "fix the login", kind: "prompt" });
    expect(about).toBe('User asked: "fix the login" and sent 2,000 more messages. The agent read 12,345 files (1,200 failed) and searched the code 1,000 times. 1,001 API errors. Session ended cleanly with an agent reply.');
  });
});
