import { describe, expect, it } from "vitest";

import { buildAbout } from "@/lib/forensics/overview";
import { emptyStats, type SessionStats } from "@/lib/forensics/scan";

function stats(text: string): SessionStats {
  return { ...emptyStats(), firstMs: 0, lastMs: 1000, userMessages: [{ text, file: "s.jsonl", line: 7 }], userMessageCount: 1, eventsBySource: { main: 2, subagent: 0, tool_result: 0, audit: 0 }, mainReplies: 1 };
}

describe("the about paragraph reads as a person would (issue 12, item 4)", () => {
  it("quotes a slash command as typed, not its <command-…> tags", () => {
    const tagged = "<command-message>wsd:init</command-message>\n<command-name>/wsd:init</command-name>\n<command-args>--custom</command-args>";
    const about = buildAbout(stats(tagged), { status: "completed", reason: "reply", last_response_preview: null }, 0);
    expect(about).toMatch(/^User asked: "\/wsd:init --custom"\./);
    expect(about).not.toContain("<command");
  });
});
