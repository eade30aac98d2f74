/** Tests of analyzeCodexTranscript and legacy report sessions. */
import fs from "node:fs/promises";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { AppError } from "@/lib/errors";
import { dayWindow } from "@/lib/sources/common/window";
import { analyzeCodexTranscript } from "@/lib/sources/codex/analyze";
import { PROMPT_DIARY_AGENTS_MARKER } from "@/lib/sources/codex/report-session";
import { codex, toJsonl } from "@/lib/sources/codex/rollout-builder";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

const FIXTURES = path.join(SHARED_DIR, "fixtures", "prompt-diary");
const shanghai = (date: string) => {
  const day = dayWindow(date, "Asia/Shanghai");
  return { startMs: day.startMs, endMs: day.endMs };
};
const spans = (turns: { turn_ref: string; turn_start_line: number; turn_end_line: number }[]) => turns.map((t) => [t.turn_ref, t.turn_start_line, t.turn_end_line]);

async function writeRollout(records: Record<string, unknown>[], name = "rollout-test.jsonl"): Promise<string> {
  const file = path.join(await makeTempDir("casefile-codex-analyze-"), name);
  await fs.writeFile(file, toJsonl(records));
  return file;
}

describe.skipIf(!HAS_SHARED)(`prompt-diary raw Codex fixtures${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it("multi-turn, 2026-05-12 Asia/Shanghai: T0001 = 4-6 (echo on 5), T0002 = 10-12 (7-9 scaffolding)", async () => {
    const file = path.join(FIXTURES, "prepare-multi-turns/codex/2026/05/26/rollout-2026-05-26T09-00-00-fake-codex-multi-turn.jsonl");
    const analysis = await analyzeCodexTranscript(file, shanghai("2026-05-12"));
    expect(spans(analysis.turns)).toEqual([["T0001", 4, 6], ["T0002", 10, 12]]);
    expect(analysis.turns.map((t) => t.outputTokens)).toEqual([null, null]); // no token_count records
    expect(analysis).toMatchObject({ sourceSessionId: "fake-codex-multi-turn", projectRoot: "/fake/projects/ReportGenerator", lineCount: 12 });
  });

  it("cross-day: 2026-05-18 → T0001 = 4-13 (task_complete ends it); 2026-05-19 → T0001 = 16-18", async () => {
    const file = path.join(FIXTURES, "prepare-cross-day-reactions/codex/2026/05/18/rollout-2026-05-18T23-59-29-git-outpost-cross-day.jsonl");
    const first = await analyzeCodexTranscript(file, shanghai("2026-05-18"));
    expect(spans(first.turns)).toEqual([["T0001", 4, 13]]);
    expect(first.turns[0]!.outputTokens).toBeNull(); // token_count without total_token_usage
    expect(spans((await analyzeCodexTranscript(file, shanghai("2026-05-19"))).turns)).toEqual([["T0001", 16, 18]]);
    expect(spans((await analyzeCodexTranscript(file, shanghai("2026-05-20"))).turns)).toEqual([]);
  });
});

describe("analyzeCodexTranscript", () => {
  it("stops reading at a session_meta that excludes a child session", async () => {
    const file = await writeRollout([codex.meta({ thread_source: "subagent" }), codex.user("go", 1), codex.assistant("x", 2)]);
    const analysis = await analyzeCodexTranscript(file, null);
    expect(analysis.subagentReason).not.toBeNull();
    expect(analysis.lineCount).toBe(1);
  });

  it("uses the filename stem when no session_meta has an id", async () => {
    const file = await writeRollout([codex.user("go", 1)], "rollout-2026-05-12T09-00-00-abc.jsonl");
    expect((await analyzeCodexTranscript(file, null)).sourceSessionId).toBe("rollout-2026-05-12T09-00-00-abc");
  });

  it("throws not_found for a missing file", async () => {
    const error = await analyzeCodexTranscript("/nonexistent/rollout.jsonl", null).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("not_found");
  });
});

describe("legacy codex_python_sdk report sessions (contract §1.8 step 2)", () => {
  async function reportWorkspace(over: { metadata?: Record<string, unknown>; agents?: string | null; folder?: string } = {}): Promise<string> {
    const dir = path.join(await makeTempDir("casefile-report-"), "work", over.folder ?? "2026-05-12");
    await fs.mkdir(dir, { recursive: true });
    const metadata = { schema_version: 3, report_date: "2026-05-12", timezone: "Asia/Shanghai", prepared_at: "2026-05-12T08:58:00+08:00", ...over.metadata };
    await fs.writeFile(path.join(dir, "metadata.json"), JSON.stringify(metadata));
    if (over.agents !== null) await fs.writeFile(path.join(dir, "AGENTS.md"), over.agents ?? `# Report\n${PROMPT_DIARY_AGENTS_MARKER}\n`);
    return dir;
  }
  const sdkSession = (cwd: string) => writeRollout([codex.meta({ originator: "codex_python_sdk", cwd }, 0), codex.user("extract evidence", 1)]);

  it.each([1, 2, 3])("excludes a session whose cwd is a schema-%i report workspace", async (schema) => {
    const analysis = await analyzeCodexTranscript(await sdkSession(await reportWorkspace({ metadata: { schema_version: schema } })), null);
    expect(analysis.reportReason).toMatch(/legacy prompt-diary report session/);
  });

  it.each([
    ["schema 4", { metadata: { schema_version: 4 } }],
    ["a report_date that is not the folder name", { metadata: { report_date: "2026-05-13" } }],
    ["a naive prepared_at", { metadata: { prepared_at: "2026-05-12T08:58:00" } }],
    ["prepared after the session started", { metadata: { prepared_at: "2026-05-12T10:00:00+08:00" } }],
    ["no generated marker in AGENTS.md", { agents: "# hand-written\n" }],
    ["no AGENTS.md", { agents: null }],
  ])("keeps it with %s", async (_name, over) => {
    const analysis = await analyzeCodexTranscript(await sdkSession(await reportWorkspace(over)), null);
    expect(analysis.reportReason).toBeNull();
    expect(analysis.turns).toHaveLength(1);
  });

  it("never resolves a relative cwd against this process", async () => {
    const analysis = await analyzeCodexTranscript(await sdkSession("work/2026-05-12"), null);
    expect(analysis.reportReason).toBeNull();
  });
});
