/** The list row's probes (first and last timestamp, first message, ending) read a window at a time: equal to reading fixed line ranges whole. */
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
import { parseAwareTimestamp } from "@/lib/sources/common/timestamps";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { loadWorkspace } from "@/lib/workspace/load";
import { prepareWorkspace } from "@/lib/workspace/prepare";
import { getSession, getWorkspaceLineIndex, type ResolvedSession } from "@/lib/workspace/sessions";

/** The probes as fixed ranges read whole: 64 lines from each end, the first turn's line. */
async function referenceProbes(ctx: CoreContext, session: ResolvedSession) {
  const index = await getWorkspaceLineIndex(ctx, session.filePath);
  const first = (texts: string[]) => {
    for (const text of texts) {
      const m = /"timestamp"\s*:\s*"([^"]+)"/.exec(text);
      const ms = m ? parseAwareTimestamp(m[1]) : null;
      if (ms !== null) return new Date(ms).toISOString();
    }
    return null;
  };
  const head = await readLineRange(session.filePath, index, 1, Math.min(64, index.lineCount));
  const tail = await readLineRange(session.filePath, index, Math.max(1, index.lineCount - 63), index.lineCount);
  const start = session.row.turns[0]!.turn_start_line;
  const [line] = await readLineRange(session.filePath, index, start, start);
  const preview = buildCompactRecord({ line: line!.line, text: line!.text, source: session.row.source }).text_preview;
  return {
    started_at: first(head.map((l) => l.text)),
    ended_at: first(tail.map((l) => l.text).reverse()),
    first_user_message: previewLine(preview === null ? null : readableUserText(preview), 300),
  };
}

describe.skipIf(!HAS_SHARED)(`list row probes on the corpus${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("equal the fixed-range reads for every session, and the ending is the same whatever the window", async () => {
    const ctx = createCoreContext(await makeTempDir(), { now: () => new Date("2026-11-28T00:00:00Z") });
    await prepareWorkspace(ctx, { claudeRoots: [path.join(SHARED_DIR, "corpus", "claude-code")], codexRoots: [path.join(SHARED_DIR, "corpus", "codex")] });
    let seen = 0;
    for (const p of (await loadWorkspace(ctx)).projects) {
      for (const row of p.rows) {
        const session = await getSession(ctx, p.projectKey, row.session_ref);
        const summary = await getSessionSummary(ctx, session);
        expect({ started_at: summary.started_at, ended_at: summary.ended_at, first_user_message: summary.first_user_message }, `${p.projectKey}/${row.session_ref}`).toEqual(await referenceProbes(ctx, session));
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
