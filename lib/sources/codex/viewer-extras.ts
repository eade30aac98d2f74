/** The viewer's extras of a Codex rollout line (issue 12): its group by record and event type. */
import { asObject, type JsonObject } from "@/lib/sources/common/json-object";
import { nonBlankString } from "@/lib/sources/common/py-compat";
import { CONVERSATION, type LineExtras } from "@/lib/sources/common/viewer-detail";

/** The group of one parsed Codex line: session meta, turn context and compactions are system; token counts progress; messages and reasoning conversation. */
export function codexExtras(record: JsonObject): LineExtras {
  const type = nonBlankString(record.type);
  const payload = asObject(record.payload);
  const payloadType = payload ? nonBlankString(payload.type) : null;
  if (type === "session_meta" || type === "turn_context" || type === "compacted") return { group: "system", command: null, detail: null };
  if (type === "event_msg") {
    if (payloadType === "token_count") return { group: "progress", command: null, detail: null };
    if (payloadType === "user_message" || payloadType === "agent_message" || payloadType === "agent_reasoning") return CONVERSATION;
    return { group: "system", command: null, detail: null };
  }
  return CONVERSATION;
}
