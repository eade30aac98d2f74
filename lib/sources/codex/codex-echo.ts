/** Codex message echoes recognised and merged (contract §1.7). */
import { parseTimestampMicros } from "@/lib/sources/common/py-compat";
import { asObject, type JsonObject } from "@/lib/sources/common/json-object";

/** Echo window: the echo may follow its original by 0 to 100 ms inclusive (contract §1.7). */
export const ECHO_WINDOW_MICROS = 100_000;

/** A known text-only Codex message, in its protocol (`response`) or UI (`event`) form. */
export type CodexMessage = {
  role: "user" | "assistant";
  representation: "response" | "event";
  text: string;
  /** Top-level `timestamp` in microseconds since the epoch (must carry a time zone). */
  timestampMicros: number;
};

/**
 * Reads a Codex record as a known text-only message (contract §1.7 "known text-only Codex
 * messages"), or `null`:
 * - `event_msg` `user_message` / `agent_message` with a string `payload.message`;
 * - `response_item` `message` of role user/assistant whose every content part is
 *   `input_text` / `output_text` with a string `text` (joined by `"\n"`; an empty list is unknown).
 * Both need an object `payload` and a zoned top-level `timestamp`.
 */
export function parseCodexMessage(record: JsonObject): CodexMessage | null {
  const payload = asObject(record.payload);
  const timestampMicros = parseTimestampMicros(record.timestamp);
  if (payload === null || timestampMicros === null) return null;
  if (record.type === "event_msg") {
    const role = payload.type === "user_message" ? "user" : payload.type === "agent_message" ? "assistant" : null;
    if (role === null || typeof payload.message !== "string") return null;
    return { role, representation: "event", text: payload.message, timestampMicros };
  }
  if (record.type !== "response_item" || payload.type !== "message") return null;
  const role = payload.role;
  if (role !== "user" && role !== "assistant") return null;
  const text = responseText(payload.content);
  return text === null ? null : { role, representation: "response", text, timestampMicros };
}

function responseText(content: unknown): string | null {
  if (!Array.isArray(content) || content.length === 0) return null;
  const texts: string[] = [];
  for (const item of content) {
    const part = asObject(item);
    if (part === null || (part.type !== "input_text" && part.type !== "output_text")) return null;
    if (typeof part.text !== "string") return null;
    texts.push(part.text);
  }
  return texts.join("\n");
}

/**
 * True when `second` echoes `first` (contract §1.7): same role; order response → event for
 * user, event → response for assistant; identical text; `0 ≤ Δt ≤ 100 ms`. Callers enforce
 * physical adjacency.
 */
export function isCodexMessageEcho(first: CodexMessage, second: CodexMessage): boolean {
  const order = first.role === "user" ? ["response", "event"] : ["event", "response"];
  const delta = second.timestampMicros - first.timestampMicros;
  return (
    first.role === second.role &&
    first.representation === order[0] &&
    second.representation === order[1] &&
    first.text === second.text &&
    delta >= 0 &&
    delta <= ECHO_WINDOW_MICROS
  );
}

/**
 * Line that the event message on `line` echoes, or `null` (contract §4.3 step 1 / §1.7): a user
 * `event_msg` repeats the response on `line - 1`; an assistant `event_msg` is repeated by the
 * response on `line + 1`. `neighbor(n)` returns the parsed record on line `n` when it is known.
 */
export function codexDuplicateOf(
  line: number,
  record: JsonObject,
  neighbor: (line: number) => JsonObject | null,
): number | null {
  const message = parseCodexMessage(record);
  if (message === null || message.representation !== "event") return null;
  const target = message.role === "user" ? line - 1 : line + 1;
  const neighborRecord = neighbor(target);
  const other = neighborRecord === null ? null : parseCodexMessage(neighborRecord);
  if (other === null) return null;
  const [first, second] = message.role === "user" ? [other, message] : [message, other];
  return isCodexMessageEcho(first, second) ? target : null;
}
