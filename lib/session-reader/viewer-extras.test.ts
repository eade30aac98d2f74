import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { readableUserText, slashCommandText } from "@/lib/format/display-text";
import { viewerExtras } from "@/lib/session-reader/viewer-extras";
import { createCoreContext } from "@/lib/context";
import { buildTestWorkspace, TEST_PROJECT_KEY } from "@/lib/testing/workspace-builder";
import { listSessions } from "@/lib/workspace/list-sessions";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

const PHANTOM = path.join(SHARED_DIR, "corpus/claude-code/phantom-reads/session-examples/2.1.6-bad/bf88e2ff-ac8b-4f29-8dbf-c2467325fe4e.jsonl");
const SPOTTER = path.join(SHARED_DIR, "corpus/claude-code/misc/marot__spotter/test/fixtures/transcripts/258c7280-ae70-4798-800f-63464d01a85d.jsonl");
const lineOf = (file: string, n: number) => fs.readFileSync(file, "utf8").split("\n")[n - 1]!;
const firstLine = (file: string, test: (o: Record<string, unknown>) => boolean) =>
  fs
    .readFileSync(file, "utf8")
    .split("\n")
    .find((l) => {
      try {
        return test(JSON.parse(l));
      } catch {
        return false;
      }
    })!;

describe("slash commands and local command output", () => {
  it("reads a command message as the command typed", () => {
    expect(slashCommandText("<command-message>wsd:init</command-message>\n<command-name>/wsd:init</command-name>\n<command-args>--custom</command-args>")).toBe("/wsd:init --custom");
    expect(slashCommandText("<command-name>/export</command-name>\n            <command-message>export</command-message>\n            <command-args></command-args>")).toBe("/export");
    expect(slashCommandText("<command-message>review</command-message>")).toBe("/review");
    expect(slashCommandText("please run /wsd:init")).toBeNull();
    expect(readableUserText("<local-command-stdout>Set model to opus</local-command-stdout>")).toBe("Set model to opus");
    expect(readableUserText("plain text")).toBe("plain text");
  });
});

describe.skipIf(!HAS_SHARED)(`viewer extras on real corpus lines${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("a Claude Code slash command, a summary and system records", () => {
    expect(viewerExtras(lineOf(PHANTOM, 7), "claude-code")).toEqual({ timestamp: "2026-01-13T18:03:55.896Z", group: "conversation", command: "/wsd:init --custom", detail: null });
    expect(viewerExtras(lineOf(PHANTOM, 1), "claude-code")).toEqual({ timestamp: null, group: "system", command: null, detail: "WSD Manifest-Driven Pipeline Plan Review" });
    expect(viewerExtras(lineOf(PHANTOM, 39), "claude-code")).toMatchObject({ group: "system", detail: "Turn took 2m 20s." });
    expect(viewerExtras(lineOf(PHANTOM, 38), "claude-code").detail).toMatch(/^Stop hooks ran: .*macos-notification\.sh/);
  });

  it("progress, snapshots and a compaction boundary", () => {
    const hook = viewerExtras(firstLine(SPOTTER, (o) => o.type === "progress" && (o.data as { type?: string }).type === "hook_progress"), "claude-code");
    expect(hook).toMatchObject({ group: "progress", detail: "SessionStart:startup: /home/USER/.claude/hooks/tmux-waiting.sh clear" });
    const bash = viewerExtras(firstLine(SPOTTER, (o) => o.type === "progress" && (o.data as { type?: string }).type === "bash_progress"), "claude-code");
    expect(bash.group).toBe("progress");
    expect(bash.detail).toContain("warning: invalid association");
    expect(viewerExtras(firstLine(SPOTTER, (o) => o.type === "file-history-snapshot"), "claude-code").group).toBe("snapshot");
    expect(viewerExtras(firstLine(SPOTTER, (o) => o.subtype === "compact_boundary"), "claude-code")).toMatchObject({ group: "system", detail: "Conversation compacted" });
  });
});

describe("the session table's first message", () => {
  it("reads a slash-command session as the command", async () => {
    const command = { type: "user", message: { role: "user", content: "<command-message>wsd:init</command-message>\n<command-name>/wsd:init</command-name>\n<command-args>--custom</command-args>" }, timestamp: "2026-01-13T18:03:55.896Z" };
    const root = await buildTestWorkspace([{ ref: "S0001", content: `${JSON.stringify(command)}\n`, turns: [{ turn_ref: "T0001", turn_start_line: 1, turn_end_line: 1 }] }]);
    const listed = await listSessions(createCoreContext(root), { project_key: TEST_PROJECT_KEY });
    expect(listed).toMatchObject({ status: "ok", sessions: [{ session_ref: "S0001", first_user_message: "/wsd:init --custom" }] });
  });
});
