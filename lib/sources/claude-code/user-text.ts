/** What the text of a user-side message is: the user's own prompt, or something Claude Code wrote on their side (issue 36 item 5). */

/**
 * What a user message's text is, by what Claude Code writes on the user's side of a transcript:
 * - `prompt`: text the user typed to the agent (anything not below);
 * - `command`: a slash command, `<command-name>/context</command-name>…` or
 *   `<command-message>…` first (contract §2.4);
 * - `command_output`: a local command's output or Claude Code's caveat before it
 *   (`<local-command-stdout>`, `-stderr`, `-caveat`);
 * - `bash`: bash mode (`!ls`): `<bash-input>`, `<bash-stdout>`, `<bash-stderr>`;
 * - `continuation`: a compaction's summary ("This session is being continued from a previous
 *   conversation…"; contract §2.6), when not flagged `isCompactSummary`;
 * - `interruption`: Claude Code's "[Request interrupted by user…]" marker;
 * - `blank`: nothing but whitespace.
 */
export type UserTextKind = "prompt" | "command" | "command_output" | "bash" | "continuation" | "interruption" | "blank";

const COMMAND = /^<(?:command-name|command-message)>/;
const COMMAND_OUTPUT = /^<local-command-(?:stdout|stderr|caveat)>/;
const BASH = /^<bash-(?:input|stdout|stderr)>/;
const CONTINUATION = "This session is being continued from a previous conversation";
const INTERRUPTION = "[Request interrupted by user";

/**
 * The {@link UserTextKind} of a user message's text (string content, or its text parts joined),
 * from how it begins (leading whitespace ignored). Pure; never throws. The one rule of which
 * human triggers are "the user's request": the list's first user message, the overview's
 * `about` and the viewer's "User asked" banner show only a `prompt`; lib/forensics/status reads
 * `command` and `command_output` as the local commands that end a session. Turn splitting
 * (contract §1.7, no content-prefix filtering) does not use it.
 */
export function userTextKind(text: string): UserTextKind {
  const t = text.trimStart();
  if (t === "") return "blank";
  if (COMMAND.test(t)) return "command";
  if (COMMAND_OUTPUT.test(t)) return "command_output";
  if (BASH.test(t)) return "bash";
  if (t.startsWith(CONTINUATION)) return "continuation";
  if (t.startsWith(INTERRUPTION)) return "interruption";
  return "prompt";
}
