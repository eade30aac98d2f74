/** Copilot CLI tool calls: `toolRequests` read into calls, their file paths and one-line summaries (agent-formats.md §2). */
import type { AgentToolCall } from "@/lib/sources/common/agent-source";
import { asObject, type JsonObject } from "@/lib/sources/common/json-object";
import { str } from "@/lib/sources/copilot-cli/fields";

/** Input keys that name one file (`view`/`edit`/`create` use `path`; MCP and other tools use the rest). */
const FILE_KEYS = ["path", "file_path", "filePath", "absolute_path", "absolutePath", "file", "notebook_path"] as const;
/** Input keys that name several files. */
const FILES_KEYS = ["paths", "files", "file_paths", "filePaths"] as const;

/**
 * The file paths a tool input names, in input order without repeats: string values of
 * {@link FILE_KEYS} and string items of {@link FILES_KEYS} at the input's top level. A `glob` or
 * `grep` `path` is the folder searched, and is listed too (it is a path the call touches).
 */
export function inputFiles(input: unknown): string[] {
  const obj = asObject(input);
  if (obj === null) return [];
  const files: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === "string" && value !== "" && !files.includes(value)) files.push(value);
  };
  for (const key of FILE_KEYS) add(obj[key]);
  for (const key of FILES_KEYS) {
    const list = obj[key];
    if (Array.isArray(list)) list.forEach(add);
  }
  return files;
}

/** Input keys whose value says what a call does, most telling first (`bash` → command, `grep`/`glob` → pattern, `view` → path). */
const SUMMARY_KEYS = ["command", "pattern", "query", "path", "file_path", "filePath", "url", "prompt", "description"] as const;

/**
 * One line saying what a call does: `bash: npm test`, `view /src/a.ts`, `grep TODO`, or the bare
 * tool name when its input has none of {@link SUMMARY_KEYS}. Commands take a colon, the way a
 * shell prompt reads; other arguments follow the name.
 */
export function callSummary(name: string, input: unknown): string {
  const obj = asObject(input);
  for (const key of SUMMARY_KEYS) {
    const value = str(obj, key);
    if (value !== null) return key === "command" ? `${name}: ${value}` : `${name} ${value}`;
  }
  return name;
}

/**
 * The calls of an `assistant.message`'s `toolRequests[{toolCallId, name, arguments}]` (or a
 * `tool.user_requested`'s single request): the agent's own input kept as is. A request without a
 * name is kept with the name `unknown`, because the line still asked for something.
 */
export function readToolRequests(requests: unknown): AgentToolCall[] {
  if (!Array.isArray(requests)) return [];
  const calls: AgentToolCall[] = [];
  for (const item of requests) {
    const request = asObject(item);
    if (request === null) continue;
    calls.push(toolCall(str(request, "toolCallId"), str(request, "name") ?? "unknown", request.arguments));
  }
  return calls;
}

/** One call from its id, tool name and input. */
export function toolCall(id: string | null, name: string, input: unknown): AgentToolCall {
  return { id, name, input: input ?? null, files: inputFiles(input) };
}

/** The exit code Copilot's shell tools append to their output (`<exited with exit code 1>`), or null. */
export function shellExitCode(output: string): number | null {
  const match = /<exited with exit code (-?\d+)>\s*$/.exec(output);
  return match ? Number(match[1]) : null;
}

/** The text a `tool.execution_complete` result shows: `result.content`, else the text parts of `result.contents`. */
export function resultText(result: JsonObject | null): string | null {
  const content = str(result, "content");
  if (content !== null) return content;
  const contents = result?.contents;
  if (!Array.isArray(contents)) return null;
  const texts = contents.map((c) => str(asObject(c), "text")).filter((t): t is string => t !== null);
  return texts.length > 0 ? texts.join("\n") : null;
}
