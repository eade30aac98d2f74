/** Codex analysis of the corpus: turn spans and output tokens checked by hand. */
import path from "node:path";

import { describe, expect, it } from "vitest";

import { analyzeCodexTranscript } from "@/lib/sources/codex/analyze";
import { HAS_SHARED, SHARED_DIR, SKIP_SHARED_MESSAGE } from "@/lib/testing/shared";

const CORPUS = path.join(SHARED_DIR, "corpus", "codex");

/*
 * Hand-checked spans. Each file was dumped record by record with a throwaway python3 script
 * (json.loads per line of `str.splitlines()`; printed line, timestamp, `type:payload.type`,
 * role, the first text / token totals) and the contract §1.7 rules applied by eye:
 * - triggers = user `response_item` messages / `user_message` events not starting with a
 *   source-context prefix; the `user_message` event right after its response (same text, Δt ≤
 *   100 ms) was checked to be an echo;
 * - each turn end was found by walking back from the next trigger over `turn_context`,
 *   `task_started`, developer messages and `<environment_context>`/`# AGENTS.md` user messages;
 * - output tokens by hand from the cumulative `total_token_usage.output_tokens` snapshots.
 * The fork fingerprints were cross-checked against python3 `json.dumps(sort_keys=True,
 * ensure_ascii=True)` + sha256 on the prompt-diary multi-turn fixture.
 */
const PINNED: { file: string; id: string; root: string; spans: [number, number][]; output: (number | null)[]; note: string }[] = [
  {
    // 1 session_meta, 2 task_started, 3 developer, 4 env context (user), 5 turn_context,
    // 6 "[REDACTED_PROMPT]", 7 its echo (Δ 0 ms), 8-9 agent_message + assistant, 10 token_count
    // (total out 10 = last out 10: fresh start), 11 task_complete.
    file: "kvsankar__agent-history/tests/fixtures/real_sessions/codex/session-01.jsonl",
    id: "019e9625-802f-7e91-840a-cfe88d14117a",
    root: "/tmp/agent-history-real-agent/codex/workspace",
    spans: [[6, 11]],
    output: [10],
    note: "codex_exec 0.135",
  },
  {
    // 2 "# AGENTS.md …" and 3 "<environment_context>" are not triggers; 4 the prompt, 5 its echo;
    // the file ends inside the turn (no task_complete) with a function call after the last
    // snapshot, so output tokens are unknown.
    file: "codemie-ai__codemie-code/tests/integration/metrics/fixtures/codex/sessions/2026/01/02/rollout-2026-01-02T18-39-45-019b7f94-51b4-7593-922e-ba12b5b73b52.jsonl",
    id: "019b7f94-51b4-7593-922e-ba12b5b73b52",
    root: "/Users/Nikita_Levyankov/repos/EPMCDME/codemie-ai/codemie-code",
    spans: [[4, 26]],
    output: [null],
    note: "codex_exec 0.77, shell tool",
  },
  {
    // 6 "show tools" (+7 echo) … 19 task_complete; 20 task_started and 21 turn_context are the
    // next turn's scaffolding; 22 the second prompt (+23 echo) runs to 386 (task_complete).
    // Output: 374 − 0 (first snapshot on line 10 is a fresh start), then 9118 − 374 = 8744.
    file: "codemie-ai__codemie-code/src/agents/plugins/codex/tests/fixtures/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl",
    id: "019e1625-789d-76c0-80ab-3724b5ddb799",
    root: "/Users/Sample_User/repos/codemie-ai/codemie-code",
    spans: [[6, 19], [22, 386]],
    output: [374, 8744],
    note: "codex-tui 0.125",
  },
  {
    // Eleven prompts, each preceded by task_started (and the first by developer/AGENTS/env
    // lines 2-8), each turn closed by task_complete. total_token_usage is redacted to a string,
    // so output tokens are unknown.
    file: "jerometremblay__codex_log_viewer/codex_sessions/20260213134203_redacted_current_codex_session_jsonl_export.jsonl",
    id: "019c581e-8542-7bb1-b7e1-7e6221c3047c",
    root: "/Users/jerome/codex_log_viewer",
    spans: [[9, 148], [150, 215], [217, 266], [268, 359], [361, 412], [414, 439], [441, 511], [513, 564], [566, 617], [619, 655], [657, 679]],
    output: Array<null>(11).fill(null),
    note: "Codex Desktop 0.100",
  },
  {
    // Legacy format (Casefile extension): header on 1, state markers, line 3 is the
    // <environment_context> (its <cwd> is the project root); user prompts on 4, 27, 39, 57, 89,
    // 97, 111, 134, 169, 222, 240. State markers are not scaffolding, so 96 stays in turn 5.
    file: "jerometremblay__codex_log_viewer/example.jsonl",
    id: "981d779b-eff6-469e-bb55-b423fe135b79",
    root: "/home/daniel/Programs/codex_log_viewer",
    spans: [[4, 26], [27, 38], [39, 56], [57, 88], [89, 96], [97, 110], [111, 133], [134, 168], [169, 221], [222, 239], [240, 256]],
    output: Array<null>(11).fill(null),
    note: "legacy pre-envelope, 2025-09",
  },
];

describe.skipIf(!HAS_SHARED)(`Codex corpus spans${HAS_SHARED ? "" : ` (${SKIP_SHARED_MESSAGE})`}`, () => {
  it.each(PINNED)("$note: $file", async ({ file, id, root, spans, output }) => {
    const analysis = await analyzeCodexTranscript(path.join(CORPUS, file), null);
    expect(analysis.turns.map((t) => [t.turn_start_line, t.turn_end_line])).toEqual(spans);
    expect(analysis.turns.map((t) => t.outputTokens)).toEqual(output);
    expect(analysis).toMatchObject({ sourceSessionId: id, projectRoot: root, malformedLineCount: 0, subagentReason: null, reportReason: null });
  });

  it("display usage of the codemie-tui session comes from cumulative totals", async () => {
    const analysis = await analyzeCodexTranscript(path.join(CORPUS, PINNED[2]!.file), null);
    expect(analysis.turns.map((t) => t.usage)).toEqual([
      { inputTokens: 57906, outputTokens: 374, totalTokens: 58280 },
      { inputTokens: 6055836 - 57906, outputTokens: 8744, totalTokens: 6064954 - 58280 },
    ]);
  });
});
