/** The Codex fixture workspaces read through the session reader. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { createCoreContext } from "@/lib/context";
import { readSessionLines } from "@/lib/session-reader/read-session-lines";
import type { CompactRecord } from "@/lib/session-reader/schema";
import { parseJsonObject } from "@/lib/sources/common/json-object";
import { analyzeCodexTranscript } from "@/lib/sources/codex/analyze";
import { copyFixtureWorkspace, HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";
import { loadWorkspace } from "@/lib/workspace/load";

/** prompt-diary fixture workspaces holding Codex sessions (fixtures README). */
const WORKSPACES = ["session-reader/workspace", "evidence-extraction/basic-two-turns/workspace", "project-synthesis/disposition-scope/workspace"];

/** The fixture store lacks basic-two-turns' metadata.json; the README names two-projects' as its likely twin. */
async function completeFixture(relative: string): Promise<string> {
  const root = await copyFixtureWorkspace(relative);
  const metadata = path.join(root, "metadata.json");
  if (!(await fs.stat(metadata).catch(() => null))) {
    await fs.copyFile(path.join(SHARED_DIR, "fixtures/prompt-diary/daily-synthesis/two-projects/workspace/metadata.json"), metadata);
  }
  return root;
}

async function codexRows(relative: string) {
  const ctx = createCoreContext(await completeFixture(relative));
  const ws = await loadWorkspace(ctx);
  const rows = ws.projects.flatMap((p) => p.rows.filter((r) => r.source === "codex").map((row) => ({ project: p, row })));
  return { ctx, rows };
}

describe.skipIf(!HAS_SHARED)(`Codex sessions of the prompt-diary fixture workspaces${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it.each(WORKSPACES)("%s reads in compact mode with meaningful summaries", async (relative) => {
    const { ctx, rows } = await codexRows(relative);
    expect(rows.length).toBeGreaterThan(0);
    for (const { project, row } of rows) {
      const filePath = path.join(project.dir, row.session_path);
      const texts = (await fs.readFile(filePath, "utf8")).split("\n").filter((l) => l !== "");
      const result = await readSessionLines(ctx, { project_key: project.projectKey, session_ref: row.session_ref, start_line: 1, end_line: texts.length });
      expect(result.status, `${relative} ${row.session_ref}`).toBe("ok");
      if (result.status !== "ok") continue;
      const records = result.records as CompactRecord[];
      records.forEach((record, i) => {
        const where = `${relative} ${row.session_ref} line ${record.line}`;
        const source = parseJsonObject(texts[i]!);
        expect(source, where).not.toBeNull();
        expect(record.record_type, where).not.toBe("unknown");
        expect(record.summary, where).not.toMatch(/^unknown record|Malformed/);
        const payloadType = (source?.payload as { type?: unknown } | undefined)?.type;
        if ((source?.type === "event_msg" || source?.type === "response_item") && typeof payloadType === "string") {
          expect(record.record_type, where).toBe(`${source.type}:${payloadType}`);
        }
        if (record.record_type === "response_item:function_call") {
          expect(record.summary).toMatch(/^Tool call: \w+\.$/);
          expect(record.tool_uses[0]?.input_summary).toBeTruthy();
        }
        if (record.record_type === "response_item:function_call_output") {
          expect(record.tool_results[0]).toMatchObject({ kind: "output" });
          expect(record.tool_results[0]!.preview).toBeTruthy();
        }
        // Native messages carry their text; the simplified `{role, content}` shape of basic-two-turns
        // is "anything else" in §4.4 and reads as "<role> record." without text.
        const native = source?.type === "event_msg" || source?.type === "response_item";
        if (native && (record.role === "user" || record.role === "assistant")) expect(record.text_preview, where).toBeTruthy();
        if (!native) expect(record.summary, where).toBe(`${record.record_type} record.`);
      });
    }
  });

  it("session-reader S0001: user/assistant messages, a shell call, a trimmed and a whole tool output, reasoning omitted", async () => {
    const { ctx } = await codexRows("session-reader/workspace");
    const result = await readSessionLines(ctx, { project_key: "ReportGenerator-e6ff7eeda632", session_ref: "S0001", start_line: 1, end_line: 8 });
    const records = (result.status === "ok" ? result.records : []) as CompactRecord[];
    expect(records.map((r) => r.summary)).toEqual([
      "session_meta record.",
      "User message.",
      "Assistant message.",
      "Tool call: shell.",
      "Tool result.",
      "Tool result.",
      "Assistant reasoning omitted.",
      "Agent message.",
    ]);
    expect(records[4]!.tool_results[0]!.truncated).toBe(true);
    expect(records[5]!.tool_results[0]).toMatchObject({ truncated: false, preview: "ok: 3 files changed, all tests passed." });
  });

  it.each(["session-reader/workspace", "project-synthesis/disposition-scope/workspace"])("%s: the Codex analyzer reproduces the indexed turns", async (relative) => {
    const { rows } = await codexRows(relative);
    const metadata = JSON.parse(await fs.readFile(path.join(SHARED_DIR, "fixtures/prompt-diary", relative, "metadata.json"), "utf8"));
    const window = { startMs: Date.parse(metadata.report_window_utc.start), endMs: Date.parse(metadata.report_window_utc.end) };
    for (const { project, row } of rows) {
      const analysis = await analyzeCodexTranscript(path.join(project.dir, row.session_path), window);
      expect(analysis.turns.map((t) => [t.turn_ref, t.turn_start_line, t.turn_end_line]), row.session_ref).toEqual(row.turns.map((t) => [t.turn_ref, t.turn_start_line, t.turn_end_line]));
    }
  });
});
