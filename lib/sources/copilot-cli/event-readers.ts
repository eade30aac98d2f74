/**
 * What each Copilot CLI event type says, read onto a record (agent-formats.md §2; field names as
 * the CLI's session-events schema spells them). Each reader fills a record that already has its
 * line, type and time; readers never throw on a missing or mistyped field.
 */
import { oneLineHeadline, type AgentRecord } from "@/lib/sources/common/agent-source";
import { asObject, type JsonObject } from "@/lib/sources/common/json-object";
import { isoTime, joinText, str, visibleText } from "@/lib/sources/copilot-cli/fields";
import { callSummary, readToolRequests, resultText, shellExitCode, toolCall } from "@/lib/sources/copilot-cli/tool-calls";
import { shutdownUsage } from "@/lib/sources/copilot-cli/usage";

/** State carried from line to line: what each `toolCallId` called, so a completion can name its tool. */
export type ReadContext = { calls: Map<string, { name: string; input: unknown }> };

/** Reads one event's `data` onto `record`; `event` is the whole line's object (for `agentId`). */
type EventReader = (record: AgentRecord, data: JsonObject, ctx: ReadContext, event: JsonObject) => void;

/** `user.message` `source` prefixes of messages no human typed (schema: `skill-pdf` hidden skill injection, `agent-<id>` inter-agent prompt). */
const NON_HUMAN_SOURCE = /^(skill-|agent-)/;

/**
 * Whether a `user.message` is a human prompt (a turn's trigger): not a subagent's prompt (`agentId`
 * on the event), not autopilot's continuation (`isAutopilotContinuation`), not injected by a
 * skill or another agent (`source`).
 */
export function isHumanPrompt(data: JsonObject, event: JsonObject): boolean {
  if (typeof event.agentId === "string") return false;
  if (data.isAutopilotContinuation === true) return false;
  const source = str(data, "source");
  return source === null || !NON_HUMAN_SOURCE.test(source);
}

function setHeadline(record: AgentRecord, headline: string): void {
  record.headline = oneLineHeadline(headline);
}

function where(context: JsonObject | null): string | null {
  const root = str(context, "gitRoot") ?? str(context, "cwd");
  if (root === null) return null;
  const branch = str(context, "branch");
  return branch === null ? root : `${root} (${branch})`;
}

const readSessionStart: EventReader = (record, data) => {
  const version = str(data, "copilotVersion");
  const context = asObject(data.context);
  const place = where(context);
  record.role = "system";
  record.time ??= isoTime(data.startTime);
  record.model = str(data, "selectedModel");
  record.events.push({ kind: "run_start", detail: version === null ? "Copilot CLI" : `Copilot CLI ${version}` });
  record.text = joinText([version, visibleText(context)]);
  setHeadline(record, `Session started: Copilot CLI${version === null ? "" : ` ${version}`}${place === null ? "" : ` in ${place}`}`);
};

const readSessionResume: EventReader = (record, data) => {
  const model = str(data, "selectedModel");
  const context = asObject(data.context);
  const resumeTime = str(data, "resumeTime");
  record.role = "system";
  record.model = model;
  const detail = [resumeTime === null ? null : `resumed at ${resumeTime}`, model === null ? null : `model ${model}`].filter((d) => d !== null);
  record.events.push({ kind: "resume", detail: detail.length > 0 ? detail.join("; ") : "resumed" });
  record.text = joinText([model, visibleText(context)]);
  setHeadline(record, `Session resumed${model === null ? "" : ` (model ${model})`}`);
};

const readModelChange: EventReader = (record, data) => {
  const next = str(data, "newModel") ?? "?";
  const previous = str(data, "previousModel");
  const change = previous === null ? next : `${previous} → ${next}`;
  record.role = "system";
  record.events.push({ kind: "model_change", detail: change });
  record.text = joinText([previous, next]);
  setHeadline(record, `Model: ${change}`);
};

const readSystemMessage: EventReader = (record, data) => {
  const content = str(data, "content") ?? "";
  record.role = "system";
  record.text = content;
  setHeadline(record, `${str(data, "role") === "developer" ? "Developer" : "System"}: ${content}`);
};

// `transformedContent` is left out of `text`: it is `content` plus context the CLI injected
// (current time, reminders), not the user's words; the line's full view still shows it.
const readUserMessage: EventReader = (record, data, _ctx, event) => {
  const content = str(data, "content") ?? "";
  const human = isHumanPrompt(data, event);
  record.role = "user";
  record.trigger = human;
  record.text = joinText([content, visibleText(data.attachments)]);
  const source = str(data, "source");
  const who = human ? "User" : typeof event.agentId === "string" ? "Subagent prompt" : `Injected (${source ?? "autopilot"})`;
  setHeadline(record, `${who}: ${content}`);
};

const readTurnMarker = (verb: string): EventReader => (record, data) => {
  record.role = "assistant";
  record.model = str(data, "model");
  setHeadline(record, `Turn ${str(data, "turnId") ?? "?"} ${verb}`);
};

const readAssistantMessage: EventReader = (record, data, ctx) => {
  const content = str(data, "content");
  const reasoning = str(data, "reasoningText");
  const calls = readToolRequests(data.toolRequests);
  record.role = "assistant";
  record.model = str(data, "model");
  record.calls = calls;
  const parts: (string | null)[] = [content];
  for (const call of calls) {
    if (call.id !== null) ctx.calls.set(call.id, { name: call.name, input: call.input });
    parts.push(call.name, visibleText(call.input));
  }
  record.text = joinText(parts);
  record.reasoning = reasoning ?? "";
  const summaries = calls.map((c) => callSummary(c.name, c.input)).join("; ");
  if (summaries !== "") setHeadline(record, content === null ? summaries : `${summaries} — ${content}`);
  else if (content !== null) setHeadline(record, `Assistant: ${content}`);
  else if (reasoning !== null) setHeadline(record, `Assistant (thinking): ${reasoning}`);
  else setHeadline(record, "Assistant: (no text)");
};

const readReasoning: EventReader = (record, data) => {
  const content = str(data, "content") ?? "";
  record.role = "assistant";
  record.reasoning = content;
  setHeadline(record, `Assistant (thinking): ${content}`);
};

// The call itself is on the assistant.message's toolRequests; the start only names the tool.
const readToolStart: EventReader = (record, data, ctx) => {
  const name = str(data, "toolName") ?? "unknown";
  const id = str(data, "toolCallId");
  if (id !== null) ctx.calls.set(id, { name, input: data.arguments ?? null });
  record.role = "tool";
  record.model = str(data, "model");
  record.text = joinText([name, visibleText(data.arguments)]);
  setHeadline(record, `Running ${callSummary(name, data.arguments)}`);
};

const readToolComplete: EventReader = (record, data, ctx) => {
  const id = str(data, "toolCallId");
  const call = id === null ? undefined : ctx.calls.get(id);
  const result = asObject(data.result);
  const error = str(asObject(data.error), "message");
  const content = resultText(result);
  const detailed = str(result, "detailedContent");
  const failed = data.success === false;
  const output = content ?? error ?? "";
  record.role = "tool";
  record.model = str(data, "model");
  record.isError = failed;
  record.results = [{ id, name: call?.name ?? null, output, isError: failed }];
  record.text = joinText([call?.name, content, detailed === content ? null : detailed, error === output ? null : error]);
  const what = call === undefined ? "Tool result" : callSummary(call.name, call.input);
  const exit = shellExitCode(output);
  if (failed) setHeadline(record, `${what} (failed${error === null ? "" : `: ${error}`})`);
  else setHeadline(record, exit === null ? `${what} (ok)` : `${what} (exit ${exit})`);
};

const readToolUserRequested: EventReader = (record, data, ctx) => {
  const name = str(data, "toolName") ?? "unknown";
  const id = str(data, "toolCallId");
  if (id !== null) ctx.calls.set(id, { name, input: data.arguments ?? null });
  record.role = "user";
  record.calls = [toolCall(id, name, data.arguments)];
  record.text = joinText([name, visibleText(data.arguments)]);
  setHeadline(record, `User ran ${callSummary(name, data.arguments)}`);
};

const readHookStart: EventReader = (record, data) => {
  const hook = str(data, "hookType") ?? "hook";
  record.role = "system";
  record.text = joinText([hook, visibleText(data.input)]);
  setHeadline(record, `Hook ${hook} started`);
};

const readHookEnd: EventReader = (record, data) => {
  const hook = str(data, "hookType") ?? "hook";
  const error = str(asObject(data.error), "message");
  const failed = data.success === false;
  record.role = "system";
  record.isError = failed;
  record.text = joinText([hook, visibleText(data.output), error]);
  setHeadline(record, failed ? `Hook ${hook} failed${error === null ? "" : `: ${error}`}` : `Hook ${hook} ok`);
};

const readShutdown: EventReader = (record, data) => {
  const kind = str(data, "shutdownType") ?? "unknown";
  const premium = typeof data.totalPremiumRequests === "number" ? data.totalPremiumRequests : null;
  const usage = shutdownUsage(data);
  const reason = str(data, "errorReason");
  record.role = "system";
  record.model = str(data, "currentModel");
  record.usage = usage;
  record.isError = kind === "error";
  record.events.push({ kind: "shutdown", detail: premium === null ? kind : `${kind}; ${premium} premium requests` });
  const files = asObject(data.codeChanges)?.filesModified;
  record.text = joinText([reason, ...usage.map((u) => u.model), visibleText(files)]);
  const models = usage.map((u) => `${u.model} ${u.input + u.cacheRead + u.cacheWrite} in / ${u.output + u.reasoning} out`).join(", ");
  setHeadline(record, `Run ended (${kind})${reason === null ? "" : `: ${reason}`}${models === "" ? "" : ` — ${models}`}${premium === null ? "" : `, ${premium} premium requests`}`);
};

const readSessionError: EventReader = (record, data) => {
  const message = str(data, "message") ?? "";
  const kind = str(data, "errorType");
  record.role = "system";
  record.isError = true;
  record.text = joinText([kind, message]);
  setHeadline(record, `Error${kind === null ? "" : ` (${kind})`}: ${message}`);
};

const readNotice = (label: string): EventReader => (record, data) => {
  const message = str(data, "message") ?? "";
  record.role = "system";
  record.text = message;
  setHeadline(record, `${label}: ${message}`);
};

const readAbort: EventReader = (record, data) => {
  const reason = str(data, "reason");
  record.role = "system";
  record.text = reason ?? "";
  setHeadline(record, `Aborted${reason === null ? "" : ` (${reason})`}`);
};

const readSubagent = (verb: string): EventReader => (record, data) => {
  const name = str(data, "agentDisplayName") ?? str(data, "agentName") ?? "subagent";
  const error = str(data, "error");
  record.role = "assistant";
  record.model = str(data, "model");
  record.isError = verb === "failed";
  record.text = joinText([name, str(data, "agentDescription"), error]);
  setHeadline(record, `Subagent ${name} ${verb}${error === null ? "" : `: ${error}`}`);
};

const readCompactionComplete: EventReader = (record, data) => {
  const failed = data.success === false;
  const error = str(data, "error");
  record.role = "system";
  record.isError = failed;
  record.text = joinText([str(data, "summaryContent"), error]);
  setHeadline(record, failed ? `Compaction failed${error === null ? "" : `: ${error}`}` : "Conversation compacted");
};

const readSystemNotification: EventReader = (record, data) => {
  const content = str(data, "content") ?? "";
  record.role = "system";
  record.text = content;
  setHeadline(record, `Notification: ${content}`);
};

const readSkill: EventReader = (record, data) => {
  const name = str(data, "name") ?? "skill";
  record.role = "system";
  record.text = joinText([name, str(data, "description"), str(data, "content")]);
  setHeadline(record, `Skill ${name}`);
};

/** Event types read field by field (a Map: an event typed `toString` or `__proto__` is unknown, not a reader). */
export const EVENT_READERS: ReadonlyMap<string, EventReader> = new Map(Object.entries({
  "session.start": readSessionStart,
  "session.resume": readSessionResume,
  "session.model_change": readModelChange,
  "session.shutdown": readShutdown,
  "session.error": readSessionError,
  "session.info": readNotice("Info"),
  "session.warning": readNotice("Warning"),
  "session.compaction_complete": readCompactionComplete,
  "system.message": readSystemMessage,
  "system.notification": readSystemNotification,
  "user.message": readUserMessage,
  "assistant.turn_start": readTurnMarker("started"),
  "assistant.turn_end": readTurnMarker("ended"),
  "assistant.message": readAssistantMessage,
  "assistant.reasoning": readReasoning,
  "tool.execution_start": readToolStart,
  "tool.execution_complete": readToolComplete,
  "tool.user_requested": readToolUserRequested,
  "hook.start": readHookStart,
  "hook.end": readHookEnd,
  "subagent.started": readSubagent("started"),
  "subagent.completed": readSubagent("completed"),
  "subagent.failed": readSubagent("failed"),
  "skill.invoked": readSkill,
  abort: readAbort,
}));

/**
 * Event types the CLI's schema defines that carry nothing this reader interprets (streaming
 * deltas, UI state, telemetry): read generically (their payload's words as text, the type as
 * headline) without a warning. Any type in neither list is unknown and warned about.
 */
export const PLAIN_EVENT_TYPES: ReadonlySet<string> = new Set([
  "session.idle",
  "session.title_changed",
  "session.remote_steerable_changed",
  "session.schedule_created",
  "session.schedule_cancelled",
  "session.schedule_rearmed",
  "session.autopilot_objective_changed",
  "session.mode_changed",
  "session.mode_notice_delivered",
  "session.session_limits_changed",
  "session.permissions_changed",
  "session.plan_changed",
  "session.todos_changed",
  "session.workspace_file_changed",
  "session.handoff",
  "session.truncation",
  "session.snapshot_rewind",
  "session.usage_checkpoint",
  "session.context_changed",
  "session.usage_info",
  "session.context_cleared",
  "session.compaction_start",
  "session.task_complete",
  "session.binary_asset",
  "session.auto_mode_resolved",
  "session.tools_updated",
  "session.skills_loaded",
  "session.extensions_loaded",
  "session.mcp_servers_loaded",
  "session.background_tasks_changed",
  "assistant.intent",
  "assistant.message_start",
  "assistant.message_delta",
  "assistant.reasoning_delta",
  "assistant.streaming_delta",
  "assistant.tool_call_delta",
  "assistant.server_tool_progress",
  "assistant.idle",
  "assistant.usage",
  "model.call_failure",
  "model.call_finished",
  "tool.execution_partial_result",
  "tool.execution_progress",
  "tool_search.activated",
  "subagent.configured",
  "subagent.selected",
  "subagent.deselected",
  "hook.progress",
  "permission.requested",
  "permission.completed",
  "user_input.requested",
  "user_input.completed",
  "elicitation.requested",
  "elicitation.completed",
  "exit_plan_mode.requested",
  "exit_plan_mode.completed",
  "pending_messages.modified",
]);

/**
 * The generic reading of an event: every visible string of its `data` as text, its type as the
 * headline. Used for {@link PLAIN_EVENT_TYPES} and for unknown types (no invented facts).
 */
export function readPlainEvent(record: AgentRecord, data: JsonObject): void {
  record.text = visibleText(data);
  const message = str(data, "message");
  record.isError = record.type === "model.call_failure";
  record.headline = oneLineHeadline(message === null ? record.type : `${record.type}: ${message}`);
}
