/**
 * What one transcript line says, as far as the forensics scan cares (issue 9): the facts each
 * source's classifier builds from a parsed line (lib/sources/<source>/record-facts), and the tool
 * families every source's tools fall in.
 */

// Scans are stored on disk (lib/forensics/scan-store): a change to what a record classifies as
// (here or in a source's classifier) must bump SCAN_STORE_VERSION there.

/** Who produced a timeline event. */
export type Actor = "user" | "assistant" | "tool" | "system";

/** What the agent did with a tool, by family (issue 9's `about`: read, edit, run, search, web, delegate). */
export const TOOL_FAMILIES = ["read", "edit", "run", "search", "web", "delegate", "other"] as const;
export type ToolFamily = (typeof TOOL_FAMILIES)[number];

/** One tool call found in a record; `id` links it to its result (Claude `tool_use.id`, Codex `call_id`). */
export type ToolCallFact = { id: string | null; name: string; family: ToolFamily; subagentType: string | null };

/** One tool result found in a record; `failed` when the source marks it an error or a non-zero exit. */
export type ToolResultFact = { id: string | null; failed: boolean };

/** Token counts of one model response (tokens); `messageId` dedupes Claude's per-block records. */
export type UsageFact = { messageId: string | null; input: number; output: number; cacheRead: number; cacheCreation: number };

/**
 * What one transcript record says, as far as the forensics tools care. Produced by
 * {@link classifyRecord}; never holds message or tool text beyond `userText`.
 */
export type RecordFacts = {
  timestampMs: number | null;
  /** `user_message`, `assistant_message`, `tool_call`, `tool_result`, `reasoning`, `context`, `api_error`, `system:<subtype>`, `event:<type>`, the record's own type, or `malformed`. */
  eventType: string;
  actor: Actor;
  /** Text of a human message (a trigger by contract §1.7), else null. */
  userText: string | null;
  /** Codex only: the trigger came from an `event_msg` (the response item repeats it). */
  userFromEvent: boolean;
  /** An assistant text reply. */
  assistantReply: boolean;
  toolCalls: ToolCallFact[];
  toolResults: ToolResultFact[];
  apiError: string | null;
  interrupted: boolean;
  compaction: boolean;
  usage: UsageFact | null;
  /** Codex cumulative totals (`token_count` `total_token_usage`); the last one wins. */
  codexTotals: { input: number; output: number; cacheRead: number } | null;
  /** This response's context size, for seed 003's reset detector (lib/analysis): Claude `usage`, Codex `last_token_usage`. */
  contextPoint: { cacheRead: number; cacheCreation: number | null; input: number } | null;
};

// Names of the agents read through the source contract's tools (issue 38: `read_file`,
// `run_shell_command`, `replace`, `grep_search`, `create`, `list` …) are here beside Claude Code's and Codex's.
const FAMILY_BY_NAME: Record<string, ToolFamily> = {
  read: "read",
  read_many_files: "read",
  view: "read",
  notebookread: "read",
  read_file: "read",
  edit: "edit",
  write: "edit",
  multiedit: "edit",
  notebookedit: "edit",
  apply_patch: "edit",
  str_replace_editor: "edit",
  write_file: "edit",
  replace: "edit",
  str_replace: "edit",
  create: "edit",
  bash: "run",
  bashoutput: "run",
  killshell: "run",
  shell: "run",
  shell_command: "run",
  exec_command: "run",
  local_shell: "run",
  local_shell_call: "run",
  write_stdin: "run",
  run_shell_command: "run",
  run_command: "run",
  grep: "search",
  glob: "search",
  ls: "search",
  list_dir: "search",
  search: "search",
  grep_search: "search",
  search_file_content: "search",
  list_directory: "search",
  list: "search",
  webfetch: "web",
  websearch: "web",
  web_search: "web",
  web_search_call: "web",
  web_fetch: "web",
  google_web_search: "web",
  task: "delegate",
  agent: "delegate",
  spawn_agent: "delegate",
};

const READ_COMMANDS = new Set(["cat", "sed", "head", "tail", "nl", "less", "more", "bat", "wc"]);
const SEARCH_COMMANDS = new Set(["rg", "grep", "find", "ls", "fd", "tree", "git grep"]);

/**
 * The family of a tool by name (case-insensitive); shell tools are refined by the first word of
 * their command (`cat`/`sed`/`head`… read, `rg`/`grep`/`find`/`ls`… search), so Codex's single
 * shell tool still tells reading from running. Unknown tools (MCP tools, todo lists) are `other`.
 */
export function toolFamily(name: string, command: string | null = null): ToolFamily {
  let family = familyByName.get(name);
  if (family === undefined) {
    family = FAMILY_BY_NAME[name.toLowerCase()] ?? "other";
    if (familyByName.size < 4096) familyByName.set(name, family);
  }
  if (family !== "run" || command === null) return family;
  // The first whitespace-separated word of the trimmed command (as `trim().split(/\s+/)[0]`,
  // without splitting a long command), less any directory.
  const first = /^\S*/.exec(command.trimStart())![0].replace(/^.*\//, "");
  if (READ_COMMANDS.has(first)) return "read";
  if (SEARCH_COMMANDS.has(first)) return "search";
  return "run";
}

/** {@link toolFamily}'s family of each tool name seen (a transcript names a handful of tools). */
const familyByName = new Map<string, ToolFamily>();

// Shared by every record without calls or results (most lines): the facts' lists are replaced,
// never pushed to, so two frozen empties spare two allocations per line.
const NO_CALLS = Object.freeze([]) as unknown as ToolCallFact[];
const NO_RESULTS = Object.freeze([]) as unknown as ToolResultFact[];

/** Facts that say only when, what and who: the base each classifier fills in. */
export function baseFacts(timestampMs: number | null, eventType: string, actor: Actor): RecordFacts {
  return {
    timestampMs,
    eventType,
    actor,
    userText: null,
    userFromEvent: false,
    assistantReply: false,
    toolCalls: NO_CALLS,
    toolResults: NO_RESULTS,
    apiError: null,
    interrupted: false,
    compaction: false,
    usage: null,
    codexTotals: null,
    contextPoint: null,
  };
}

/** Facts of a line that is not a JSON object. */
export const MALFORMED_FACTS: RecordFacts = Object.freeze(baseFacts(null, "malformed", "system")) as RecordFacts;


/** A finite number, else 0 (token counts). */
export function num(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}
