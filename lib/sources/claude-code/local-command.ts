/** Claude Code records a user's local command leaves (issue 28): `/exit`, `/export`, their output, injected meta text. */
import { userTextKind } from "@/lib/sources/claude-code/user-text";

const COMMAND_NAME = /<command-name>\s*\/?([^<\s]+)\s*<\/command-name>/;

/**
 * A Claude Code record a user's local command left after the conversation (issue 28: a trailing
 * `/exit`, `/export` or other local command does not make a session unfinished): a slash command
 * (`<command-name>`), its output (`<local-command-stdout>`, `<local-command-caveat>`), injected
 * meta text, or a `system` `local_command` record (the user-side texts by lib/sources/claude-code/user-text's
 * rule, which also keeps them from being "the user's request"). Returns the command name for a
 * slash command (`exit`), `""` for the other local records, null for a record of the conversation.
 */
export function claudeLocalCommand(record: Record<string, unknown>): string | null {
  if (record.type === "system" && record.subtype === "local_command") {
    const m = typeof record.content === "string" ? COMMAND_NAME.exec(record.content) : null;
    return m ? m[1]! : "";
  }
  if (record.type !== "user") return null;
  if (record.isMeta === true) return "";
  const message = record.message as { content?: unknown } | undefined;
  const content = message?.content;
  const text = typeof content === "string" ? content : Array.isArray(content) && content.length === 1 && typeof (content[0] as { text?: unknown })?.text === "string" ? (content[0] as { text: string }).text : null;
  if (text === null) return null;
  const kind = userTextKind(text);
  if (kind === "command") return COMMAND_NAME.exec(text)?.[1] ?? "";
  return kind === "command_output" ? "" : null;
}
