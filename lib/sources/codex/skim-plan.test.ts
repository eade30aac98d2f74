/** The Codex skim gives the analysis JSON.parse gives. */
import { readdirSync, writeFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { analyzeCodexTranscript } from "@/lib/sources/codex/analyze";
import { CodexUsageLog } from "@/lib/sources/codex/token-usage";
import { HAS_SHARED, makeTempDir, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

/** The analysis and per-turn usage of `file`, skimmed (prepare's first pass) or every line parsed. */
async function analysed(file: string, skim: boolean) {
  const usageLog = new CodexUsageLog();
  const analysis = await analyzeCodexTranscript(file, null, usageLog, { fingerprints: false, skim });
  return { analysis, usage: usageLog.usageOf(analysis.turns) };
}

function rolloutFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".jsonl"))
    .map((e) => path.join(e.parentPath, e.name));
}

const line = (o: unknown) => JSON.stringify(o);
const ts = (s: number) => `2026-05-11T08:00:${String(s).padStart(2, "0")}.000Z`;

describe("the Codex skim gives the analysis JSON.parse gives", () => {
  it("on lines made to trip it: duplicate and escaped keys, odd payloads, bad bytes in skipped text", async () => {
    const dir = await makeTempDir("codex-skim-");
    const file = path.join(dir, "rollout-2026-05-11T08-00-00-019e0000-0000-7000-8000-000000000001.jsonl");
    const lines = [
      line({ timestamp: ts(0), type: "session_meta", payload: { id: "019e0000-0000-7000-8000-000000000001", cwd: "/w", originator: "codex-tui" } }),
      line({ timestamp: ts(1), type: "turn_context", payload: { cwd: "/w/ctx", instructions: "x".repeat(5000) } }),
      // A second session_meta (not the first line, which is always parsed): its cwd is the root.
      line({ timestamp: ts(1), type: "session_meta", payload: { id: "019e0000-0000-7000-8000-000000000002", cwd: "/w/second", originator: "codex-tui" } }),
      line({ timestamp: ts(2), type: "event_msg", payload: { type: "user_message", message: "first prompt" } }),
      line({ timestamp: ts(3), type: "response_item", payload: { type: "reasoning", summary: [{ type: "summary_text", text: "r".repeat(900) }] } }),
      line({ timestamp: ts(4), type: "event_msg", payload: { type: "token_count", info: { total_token_usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 }, last_token_usage: { output_tokens: 5 } } } }),
      // A later duplicate key wins in JSON.parse: this is a user message, so a trigger.
      `{"timestamp":"${ts(5)}","type":"response_item","payload":{"type":"message","role":"assistant","role":"user","content":[{"type":"input_text","text":"second prompt"}]}}`,
      `{"timestamp":"${ts(6)}","type":"turn_context","type":"event_msg","payload":{"type":"user_message","message":"third prompt"}}`,
      // An escaped key that spells "type".
      `{"timestamp":"${ts(7)}","typ\\u0065":"event_msg","payload":{"type":"user_message","message":"fourth prompt"}}`,
      line({ timestamp: ts(8), type: "response_item", payload: "not an object" }),
      line({ timestamp: ts(9), type: "response_item", payload: [{ type: "message", role: "user" }] }),
      // A raw control byte inside a skipped string: malformed for JSON.parse, so for the skim too.
      `{"timestamp":"${ts(10)}","type":"response_item","payload":{"type":"function_call_output","output":"a\u0001b"}}`,
      "",
      // token_count snapshots are skimmed too: odd counters must read as JSON.parse reads them.
      line({ timestamp: ts(10), type: "event_msg", payload: { type: "token_count", info: null, rate_limits: { primary: { used_percent: 1 } } } }),
      line({ timestamp: ts(10), type: "event_msg", payload: { type: "token_count", info: [{ total_token_usage: { output_tokens: 99 } }] } }),
      line({ timestamp: ts(10), type: "event_msg", payload: { type: "token_count", info: { total_token_usage: [{ output_tokens: 99 }], last_token_usage: 5 } } }),
      line({ timestamp: ts(10), type: "event_msg", payload: { type: "token_count", info: { total_token_usage: { input_tokens: 20, output_tokens: 7.5, total_tokens: "27" } } } }),
      `{"timestamp":"${ts(10)}","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":30,"output_tokens":6,"output_tokens":9,"total_tokens":39},"last_token_usage":{"output_tokens":2}}}}`,
      `{"timestamp":"${ts(10)}","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":40,"output\u005ftokens":12,"total_tokens":52}}}}`,
      line({ timestamp: ts(10), type: "event_msg", payload: { type: "token_count", info: { total_token_usage: { input_tokens: 50, output_tokens: -1, total_tokens: 60 } } } }),
      `{"timestamp":"${ts(11)}","type":"event_msg","payload":{"type":"agent_message","message":"done"}} `,
      line({ timestamp: "  ", type: "event_msg", payload: { type: "user_message", message: "untimestamped" } }),
      line({ timestamp: ts(12), type: "event_msg", payload: { type: "task_complete" } }),
      // Timestamps the skim reads from bytes, as the parsed record's field is read: other shapes,
      // impossible dates, offsets, non-strings, a duplicate key (the last wins), none at all.
      line({ timestamp: "2026-05-11T10:00:13+02:00", type: "event_msg", payload: { type: "user_message", message: "offset time" } }),
      line({ timestamp: "2026-02-31T08:00:14.000Z", type: "event_msg", payload: { type: "user_message", message: "no such day" } }),
      line({ timestamp: "2026-05-11T08:00:15.5Z", type: "event_msg", payload: { type: "agent_message", message: "short fraction" } }),
      line({ timestamp: "2026-05-11T08:00:16", type: "event_msg", payload: { type: "user_message", message: "naive" } }),
      line({ timestamp: 1778486417000, type: "event_msg", payload: { type: "user_message", message: "a number" } }),
      `{"timestamp":"${ts(30)}","type":"event_msg","timestamp":"${ts(18)}","payload":{"type":"user_message","message":"two stamps"}}`,
      line({ type: "event_msg", payload: { type: "user_message", message: "no stamp" } }),
      line({ timestamp: "2026-05-11T08:00:19.000Z", type: "event_msg", payload: { type: "token_count", info: { total_token_usage: { input_tokens: 70, output_tokens: 20, total_tokens: 90 } } } }),
      `{"timestamp":"2026-05-11T08:00:20.000\\u005a","type":"event_msg","payload":{"type":"user_message","message":"escaped zone"}}`,
      line({ timestamp: ts(10), type: "event_msg", payload: { type: "user_message", message: "back in time" } }),
    ];
    writeFileSync(file, `${lines.join("\n")}\n`);
    const skimmed = await analysed(file, true);
    expect(skimmed).toEqual(await analysed(file, false));
    expect(skimmed.analysis.turns.length).toBeGreaterThanOrEqual(3);
    expect(skimmed.analysis.malformedLineCount).toBe(2);
    expect(skimmed.analysis.projectRoot).toBe("/w/second");
  });

  it.skipIf(!HAS_SHARED)(`on every Codex transcript of the corpus and the fixture workspaces${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, async () => {
    const files = [...rolloutFiles(path.join(SHARED_DIR, "corpus", "codex")), ...rolloutFiles(path.join(SHARED_DIR, "fixtures")).filter((f) => f.split(path.sep).includes("codex"))];
    expect(files.length).toBeGreaterThan(15);
    for (const file of files) expect(await analysed(file, true), file).toEqual(await analysed(file, false));
  });
});
