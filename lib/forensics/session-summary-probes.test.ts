/** The list row's facts (clock, first message, ending) equal reading the files whole; the ending read a window at a time equals fixed ranges. */
import { writeFile } from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext, type CoreContext } from "@/lib/context";
import { getSessionSummary } from "@/lib/forensics/session-summary";
import { sessionEnding, STATUS_TAIL_LINES } from "@/lib/forensics/status";
import { readableUserText } from "@/lib/format/display-text";
import { previewLine } from "@/lib/format/one-line";
import { buildLineIndex, readLineRange } from "@/lib/jsonl/line-index";
import { LineWindows } from "@/lib/jsonl/line-windows";
import { buildCompactRecord } from "@/lib/session-reader/compact";
import { userTextKind } from "@/lib/sources/claude-code/user-text";
import { parseJsonObject } from "@/lib/sources/common/json-object";
import { parseAwareTimestamp } from "@/lib/sources/common/timestamps";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { loadWorkspace } from "@/lib/workspace/load";
import { prepareWorkspace } from "@/lib/workspace/prepare";
import { getSession, getWorkspaceLineIndex, sessionFiles, type ResolvedSession } from "@/lib/workspace/sessions";

/**
 * The row's clock and first message from the files read whole: the min and max of every record's
 * own aware timestamp over the session's transcripts (issue 36 item 6), and the first turn whose
 * trigger is a prompt, else the first slash command (the corpus' summaries are all foreign).
 */
async function referenceFacts(ctx: CoreContext, session: ResolvedSession) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const file of await sessionFiles(session, { toolResults: false })) {
    const index = await buildLineIndex(file.path);
    for (const { text } of await readLineRange(file.path, index, 1, index.lineCount)) {
      const ms = parseAwareTimestamp(parseJsonObject(text)?.timestamp);
      if (ms !== null) [lo, hi] = [Math.min(lo, ms), Math.max(hi, ms)];
    }
  }
  const index = await getWorkspaceLineIndex(ctx, session.filePath);
  let prompt: string | null = null;
  let command: string | null = null;
  for (const turn of session.row.turns) {
    const [line] = await readLineRange(session.filePath, index, turn.turn_start_line, turn.turn_start_line);
    const preview = buildCompactRecord({ line: line!.line, text: line!.text, source: session.row.source }).text_preview ?? "";
    const kind = userTextKind(preview);
    if (kind === "prompt") {
      prompt = preview;
      break;
    }
    if (kind === "command") command ??= readableUserText(preview);
  }
  return {
    started_at: lo === Infinity ? null : new Date(lo).toISOString(),
    ended_at: hi === -Infinity ? null : new Date(hi).toISOString(),
    duration_seconds: lo === Infinity ? null : Math.round((hi - lo) / 1000),
    first_user_message: previewLine(prompt ?? command, 300),
  };
}

describe.skipIf(!HAS_SHARED)(`list row facts on the corpus${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("equal reading the files whole for every session, and the ending is the same whatever the window", async () => {
    const ctx = createCoreContext(await makeTempDir(), { now: () => new Date("2026-11-28T00:00:00Z") });
    await prepareWorkspace(ctx, { claudeRoots: [path.join(SHARED_DIR, "corpus", "claude-code")], codexRoots: [path.join(SHARED_DIR, "corpus", "codex")] });
    let seen = 0;
    for (const p of (await loadWorkspace(ctx)).projects) {
      for (const row of p.rows) {
        const session = await getSession(ctx, p.projectKey, row.session_ref);
        const summary = await getSessionSummary(ctx, session);
        const { started_at, ended_at, duration_seconds, first_user_message } = summary;
        expect({ started_at, ended_at, duration_seconds, first_user_message }, `${p.projectKey}/${row.session_ref}`).toEqual(await referenceFacts(ctx, session));
        const index = await getWorkspaceLineIndex(ctx, session.filePath);
        // One read of the whole tail range (as before), and one read per line.
        const whole = await sessionEnding(ctx, session.filePath, index, row.source, new LineWindows(session.filePath, index, Number.MAX_SAFE_INTEGER));
        const perLine = await sessionEnding(ctx, session.filePath, index, row.source, new LineWindows(session.filePath, index, 1));
        expect(perLine).toEqual(whole);
        expect({ status: summary.status, last_response_preview: summary.last_response_preview }).toEqual({ status: whole.status, last_response_preview: whole.last_response_preview });
        seen += 1;
      }
    }
    expect(seen).toBe(19);
  }, 120_000);
});

describe("sessionEnding read backwards a window at a time", () => {
  it("finds an outcome and a reply far behind trailing big records, and stops at the 400-line limit", async () => {
    const dir = await makeTempDir("ending-");
    const file = path.join(dir, "s.jsonl");
    const ts = "2026-01-01T00:00:00Z";
    const reply = { type: "assistant", timestamp: ts, message: { role: "assistant", content: [{ type: "text", text: "the answer" }] } };
    const big = { type: "progress", timestamp: ts, data: "x".repeat(200_000) };
    const write = async (lines: unknown[]) => {
      await writeFile(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
      return buildLineIndex(file);
    };
    const ctx = createCoreContext(dir, { now: () => new Date("2026-06-01T00:00:00Z") });
    let index = await write([reply, big, big, big]);
    expect(await sessionEnding(ctx, file, index, "claude-code")).toEqual({ status: "completed", reason: "reply", last_response_preview: "the answer" });
    // The reply just out of reach: STATUS_TAIL_LINES lines after it.
    index = await write([reply, ...Array.from({ length: STATUS_TAIL_LINES }, () => ({ type: "progress", timestamp: ts }))]);
    expect(await sessionEnding(ctx, file, index, "claude-code")).toEqual({ status: "completed", reason: "no_reply", last_response_preview: null });
  });
});
