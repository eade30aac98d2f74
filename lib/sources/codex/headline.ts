/** Codex lines in one line each (issue 29): function and custom tool calls, their outputs, exec results, events. */
import { oneLine } from "@/lib/format/one-line";
import { ARG_CHARS, callHeadline, type HeadlineRecord, type ToolCallNames } from "@/lib/sources/common/headline-parts";
import { asObject, parseJsonObject, type JsonObject } from "@/lib/sources/common/json-object";
import { nonBlankString } from "@/lib/sources/common/py-compat";

/**
 * The headline of a Codex rollout line (`raw` parsed, null when unparsable or too big) given its
 * compact record: a call as `name(command)` (registered in `calls` by `call_id`), its output as
 * `<call> → exit N` / `→ ok`, an exec result, an event by type. Null for messages and reasoning.
 */
export function codexHeadline(raw: JsonObject | null, record: HeadlineRecord, calls: ToolCallNames): string | null {
  const payload = asObject(raw?.payload);
  const ptype = nonBlankString(payload?.type);
  if ((ptype === "function_call" || ptype === "custom_tool_call") && payload) {
    const name = nonBlankString(payload.name) ?? "tool";
    const args = typeof payload.arguments === "string" ? parseJsonObject(payload.arguments) : null;
    const head = args ? codexCall(name, args) : `${name}(${oneLine(typeof payload.input === "string" ? payload.input : "", ARG_CHARS)})`;
    const id = nonBlankString(payload.call_id);
    if (id) calls.set(id, head);
    return head;
  }
  if ((ptype === "function_call_output" || ptype === "custom_tool_call_output") && payload) {
    const id = nonBlankString(payload.call_id);
    const call = (id && calls.get(id)) || "Result";
    const preview = record.tool_results[0]?.preview ?? "";
    const exit = /(?:Exit code|exit_code)"?:?\s*(\d+)/.exec(preview.slice(0, 400));
    return `${call} → ${exit ? `exit ${exit[1]}` : "ok"}`;
  }
  if (record.tool_results.length > 0) {
    const r = record.tool_results[0]!;
    return `${r.command ? `exec(${oneLine(r.command, ARG_CHARS)})` : r.kind} → ${r.status ?? "done"}`;
  }
  if (record.record_type.startsWith("event_msg") && ptype && !/message|reasoning/.test(ptype)) return ptype.replace(/_/g, " ");
  return null;
}

function codexCall(name: string, args: JsonObject): string {
  const cmd = args.cmd ?? args.command;
  if (typeof cmd === "string") return `${name}(${oneLine(cmd, ARG_CHARS)})`;
  if (Array.isArray(cmd)) return `${name}(${oneLine(cmd.map(String).join(" "), ARG_CHARS)})`;
  return callHeadline(name, args);
}
