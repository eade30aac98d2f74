import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

import type { APIRequestContext } from "@playwright/test";

import { expect, test } from "./fixtures";
import { HAS_CORPUS, LIVE_SOURCES_DIR, NO_CORPUS_REASON, REPO_ROOT } from "./paths";

// Issue 36 item 1: with the server running, a session copied in appears, grows, another appears,
// the first grows again: each change is in the rows, search and usage within 2 s, however many
// came before (live sync used to stall for good after the first append).
const WITHIN = { timeout: 2_000, intervals: [100] };
const CWD = "/home/user/live-sync";
const DIR = path.join(LIVE_SOURCES_DIR, CWD.replaceAll("/", "-"));
/** A real Claude Code session of the corpus (62 lines, tool calls, usage), copied under new session ids. */
const TEMPLATE = path.join(REPO_ROOT, "..", "shared", "corpus", "claude-code", "misc", "marot__spotter", "test", "fixtures", "transcripts", "tool_heavy.jsonl");

/** The template's lines as session `id` of CWD, with a user prompt carrying `marker` appended. */
function sessionText(id: string, marker: string): string {
  const text = readFileSync(TEMPLATE, "utf8").replace(/"sessionId":"[^"]*"/g, `"sessionId":"${id}"`).replace(/"cwd":"[^"]*"/g, `"cwd":"${CWD}"`);
  return `${text.endsWith("\n") ? text : `${text}\n`}${prompt(id, marker)}`;
}

/** One user prompt and an assistant reply with usage, mentioning `marker`. */
function prompt(id: string, marker: string): string {
  const base = { parentUuid: null, isSidechain: false, userType: "external", cwd: CWD, sessionId: id, version: "2.1.6", gitBranch: "main", timestamp: "2026-11-30T10:00:00.000Z" };
  return `${JSON.stringify({ ...base, type: "user", uuid: `${marker}-u`, message: { role: "user", content: `please look at ${marker}` } })}\n${JSON.stringify({ ...base, type: "assistant", uuid: `${marker}-a`, message: { id: `msg-${marker}`, type: "message", role: "assistant", model: "claude-sonnet-4-5-20250929", content: [{ type: "text", text: `looked at ${marker}` }], usage: { input_tokens: 7, output_tokens: 11 } } })}\n`;
}

async function tool(request: APIRequestContext, name: string, input: object): Promise<Record<string, unknown>> {
  const res = await request.post(`/api/tools/${name}`, { data: input });
  return (await res.json()) as Record<string, unknown>;
}

/** The live project's key, once the server lists it. */
async function projectKey(request: APIRequestContext): Promise<string | null> {
  const projects = (await tool(request, "list_projects", {})).projects as { project_key: string; project_label: string }[] | undefined;
  return projects?.find((p) => p.project_label === "live-sync")?.project_key ?? null;
}

test.describe("live sync never stalls (issue 36, item 1)", () => {
  test.skip(!HAS_CORPUS, NO_CORPUS_REASON);

  test("a session added, grown, another added, the first grown again: each is in the rows, search and usage within 2 s", async ({ request }) => {
    mkdirSync(DIR, { recursive: true });
    const a = { id: "1ee70000-0000-4000-8000-00000000000a", file: path.join(DIR, "1ee70000-0000-4000-8000-00000000000a.jsonl") };
    const b = { id: "1ee70000-0000-4000-8000-00000000000b", file: path.join(DIR, "1ee70000-0000-4000-8000-00000000000b.jsonl") };
    let key: string | null = null;
    /** The session's list_sessions row, search hits of `marker`, and usage rows, as the server answers now. */
    const seen = async (id: string, marker: string) => {
      key ??= await projectKey(request);
      if (!key) return { size: null, hit: false, usage: false };
      const rows = ((await tool(request, "list_sessions", { project_key: key, limit: 50 })).sessions ?? []) as { source_session_id: string; size_bytes: number }[];
      const hits = ((await tool(request, "search_sessions", { query: marker, project_key: key })).hits ?? []) as { session_id: string }[];
      const usage = ((await tool(request, "get_usage", { group_by: "session", project_key: key })).rows ?? []) as { session_id?: string; output_tokens: number }[];
      return { size: rows.find((r) => r.source_session_id === id)?.size_bytes ?? null, hit: hits.some((h) => h.session_id === id), usage: usage.some((u) => u.session_id === id && u.output_tokens > 0) };
    };
    const steps: [string, () => void, { id: string; file: string }, string][] = [
      ["add A", () => writeFileSync(a.file, sessionText(a.id, "quetzalfirst")), a, "quetzalfirst"],
      ["grow A", () => appendFileSync(a.file, prompt(a.id, "quetzalgrown")), a, "quetzalgrown"],
      ["add B", () => writeFileSync(b.file, sessionText(b.id, "quetzalsecond")), b, "quetzalsecond"],
      ["grow A again", () => appendFileSync(a.file, prompt(a.id, "quetzalagain")), a, "quetzalagain"],
    ];
    for (const [label, change, session, marker] of steps) {
      change();
      const size = statSync(session.file).size;
      await expect.poll(() => seen(session.id, marker), { ...WITHIN, message: label }).toEqual({ size, hit: true, usage: true });
    }
  });
});
