/**
 * A `tool` part read (agent-formats.md §3): OpenCode keeps a call and its result on one part,
 * `{callID, tool, state: {status, input, output | error, metadata, title, time}}`.
 */
import type { AgentToolCall, AgentToolResult } from "@/lib/sources/common/agent-source";
import { asObject, type JsonObject } from "@/lib/sources/common/json-object";
import { msToIso, num, str, stringValues } from "@/lib/sources/opencode/values";

/** What one tool part says. */
export type ToolPartView = {
  call: AgentToolCall;
  /** The answer, once the state is `completed` or `error`; null while `pending` / `running`. */
  result: AgentToolResult | null;
  isError: boolean;
  headline: string;
  text: string;
  time: string | null;
};

/** Input keys that name files (OpenCode's `filePath`, and the other agents' spellings). */
const FILE_KEYS = ["filePath", "file_path", "filepath", "path", "absolute_path", "absolutePath", "paths", "files", "file"];

/** Paths an input names under {@link FILE_KEYS} (strings or string lists), without repeats. */
export function filesOfInput(input: JsonObject | null): string[] {
  if (input === null) return [];
  const files = new Set<string>();
  for (const key of FILE_KEYS) {
    const value = input[key];
    if (typeof value === "string" && value !== "") files.add(value);
    else if (Array.isArray(value)) for (const item of value) if (typeof item === "string" && item !== "") files.add(item);
  }
  return [...files];
}

const FILE_VERBS: Record<string, string> = { read: "Read", write: "Write", edit: "Edit", multiedit: "Edit", list: "List", ls: "List" };

/** The call's own words: `Read src/a.ts`, `bash: npm test`, `Task (general): find the bug`. */
function callHeadline(tool: string, input: JsonObject | null, title: string | null): string {
  const s = (key: string) => str(input?.[key]);
  const verb = FILE_VERBS[tool];
  if (verb !== undefined) return `${verb} ${s("filePath") ?? s("path") ?? title ?? ""}`.trim();
  switch (tool) {
    case "bash":
      return `bash: ${s("command") ?? title ?? ""}`;
    case "glob":
    case "grep":
      return `${tool === "glob" ? "Glob" : "Grep"} ${s("pattern") ?? ""}`.trim();
    case "webfetch":
      return `Fetch ${s("url") ?? ""}`.trim();
    case "task":
      return `Task (${s("subagent_type") ?? "subagent"}): ${s("description") ?? s("prompt") ?? ""}`;
    case "todowrite": {
      const todos = input?.todos;
      return Array.isArray(todos) ? `Todo list (${todos.length} items)` : "Todo list";
    }
    case "invalid":
      return `Invalid tool call: ${s("tool") ?? "unknown tool"}`;
    default: {
      const detail = title ?? stringValues(input).find((v) => v.trim() !== "") ?? "";
      return detail === "" ? tool : `${tool}: ${detail}`;
    }
  }
}

/**
 * Reads a `tool` part. A result is an error when `state.status` is `error`, when the tool ran with a
 * nonzero `state.metadata.exit` (bash), or when the tool is `invalid` (OpenCode's stand-in for a call
 * to a tool that does not exist).
 */
export function readToolPart(part: JsonObject): ToolPartView {
  const tool = str(part.tool) ?? "unknown";
  const state = asObject(part.state);
  const input = asObject(state?.input);
  const status = str(state?.status);
  const title = str(state?.title);
  const exit = num(asObject(state?.metadata)?.exit);
  const output = str(state?.output);
  const error = str(state?.error);
  const finished = status === "completed" || status === "error";
  const isError = status === "error" || (exit !== null && exit !== 0) || (tool === "invalid" && finished);
  const id = str(part.callID);

  let headline = callHeadline(tool, input, title);
  if (exit !== null && tool === "bash") headline += ` (exit ${exit})`;
  if (status === "error") headline += ` — error: ${error ?? "unknown error"}`;
  else if (!finished && status !== null) headline += ` (${status})`;

  const resultText = status === "error" ? (error ?? "") : (output ?? "");
  const words = [tool, ...(title === null ? [] : [title]), ...stringValues(input), ...(resultText === "" ? [] : [resultText])];
  return {
    call: { id, name: tool, input: state?.input ?? null, files: filesOfInput(input) },
    result: finished ? { id, name: tool, output: resultText, isError } : null,
    isError,
    headline,
    text: words.join("\n"),
    time: msToIso(asObject(state?.time)?.start),
  };
}
