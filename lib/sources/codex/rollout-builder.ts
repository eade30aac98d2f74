/** Builders of synthetic Codex envelope records for tests and demos. */
import type { CodexLine } from "@/lib/sources/codex/analyze-core";

/**
 * Builders of synthetic Codex envelope records for tests and demos (source-formats §1.2(b)).
 * Every builder takes `ms`, an offset in milliseconds from {@link ROLLOUT_T0}
 * (2026-05-12T01:00:00Z, i.e. 09:00 on 2026-05-12 in Asia/Shanghai), and returns a plain object.
 */
export const ROLLOUT_T0 = Date.parse("2026-05-12T01:00:00.000Z");

type Rec = Record<string, unknown>;

/** ISO timestamp `ms` after {@link ROLLOUT_T0}, with milliseconds and `Z`. */
export function at(ms: number): string {
  return new Date(ROLLOUT_T0 + ms).toISOString();
}

const envelope = (type: string, payload: Rec, ms: number): Rec => ({ timestamp: at(ms), type, payload });
const item = (payload: Rec, ms: number) => envelope("response_item", payload, ms);
const event = (payload: Rec, ms: number) => envelope("event_msg", payload, ms);

/** Record builders; see the module comment for `ms`. */
export const codex = {
  meta: (payload: Rec = {}, ms = 0) => envelope("session_meta", { id: "sess-1", cwd: "/work/demo", originator: "codex_cli_rs", ...payload }, ms),
  turnContext: (ms = 0, cwd = "/work/demo") => envelope("turn_context", { cwd, turn_id: "t" }, ms),
  taskStarted: (ms = 0) => event({ type: "task_started", turn_id: "t" }, ms),
  taskComplete: (ms = 0) => event({ type: "task_complete", turn_id: "t" }, ms),
  turnAborted: (ms = 0) => event({ type: "turn_aborted", reason: "interrupted" }, ms),
  user: (text: string, ms = 0) => item({ type: "message", role: "user", content: [{ type: "input_text", text }] }, ms),
  userEvent: (text: string, ms = 0) => event({ type: "user_message", message: text, images: [] }, ms),
  assistant: (text: string, ms = 0) => item({ type: "message", role: "assistant", content: [{ type: "output_text", text }] }, ms),
  agentEvent: (text: string, ms = 0) => event({ type: "agent_message", message: text }, ms),
  developer: (text = "<permissions instructions>", ms = 0) => item({ type: "message", role: "developer", content: [{ type: "input_text", text }] }, ms),
  env: (ms = 0, cwd = "/work/demo") => item({ type: "message", role: "user", content: [{ type: "input_text", text: `<environment_context>\n  <cwd>${cwd}</cwd>\n</environment_context>` }] }, ms),
  reasoning: (ms = 0) => item({ type: "reasoning", summary: [], content: null, encrypted_content: "gAAAA" }, ms),
  call: (name: string, args: Rec, ms = 0) => item({ type: "function_call", name, arguments: JSON.stringify(args), call_id: `call_${name}` }, ms),
  output: (output: string, ms = 0, callId = "call_x") => item({ type: "function_call_output", call_id: callId, output }, ms),
  /** `token_count` with cumulative `total` {input, output, total} (null: no total_token_usage) and `last_token_usage.output_tokens`. */
  tokens: (total: { input: number; output: number } | null, lastOutput: number, ms = 0) =>
    event(
      {
        type: "token_count",
        info: {
          ...(total === null ? {} : { total_token_usage: { input_tokens: total.input, cached_input_tokens: 0, output_tokens: total.output, reasoning_output_tokens: 0, total_tokens: total.input + total.output } }),
          last_token_usage: { input_tokens: 0, output_tokens: lastOutput, total_tokens: lastOutput },
          model_context_window: 272000,
        },
        rate_limits: null,
      },
      ms,
    ),
};

/** Physical lines from records (objects are JSON-encoded, strings kept verbatim), numbered from 1. */
export function toLines(records: readonly (Rec | string)[]): CodexLine[] {
  return records.map((r, i) => ({ line: i + 1, text: typeof r === "string" ? r : JSON.stringify(r) }));
}

/** A `.jsonl` file body from records: one line each, `\n`-terminated. */
export function toJsonl(records: readonly (Rec | string)[]): string {
  return toLines(records).map((l) => `${l.text}\n`).join("");
}
