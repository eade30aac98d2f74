/** User-message text made readable: slash commands, terminal escapes and control characters. */
/*
 * How a transcript's own markup reads to a person (issue 12 item 4). Client-safe and pure: the
 * session table's first message and the viewer use the same rules. Claude Code stores a slash
 * command the user typed as tags (`<command-message>wsd:init</command-message>
 * <command-name>/wsd:init</command-name><command-args>--custom</command-args>`) and a local
 * command's output as `<local-command-stdout>…</local-command-stdout>`.
 */

const TAG = (name: string) => new RegExp(`<${name}>([\\s\\S]*?)</${name}>`);

/**
 * The slash command a user message holds, as typed: `"/wsd:init --custom"`, `"/export"`; null
 * when the text is not a command message. Reads `<command-name>` (a leading `/` is added when
 * missing) and `<command-args>`; a message with only `<command-message>` reads as `/<message>`.
 */
export function slashCommandText(text: string): string | null {
  const name = TAG("command-name").exec(text)?.[1]?.trim() ?? TAG("command-message").exec(text)?.[1]?.trim();
  if (!name) return null;
  const args = TAG("command-args").exec(text)?.[1]?.trim() ?? "";
  const command = name.startsWith("/") ? name : `/${name}`;
  return args ? `${command} ${args}` : command;
}

/**
 * A user-side text as a person reads it: a slash command as typed, a local command's output
 * (`<local-command-stdout>`, `-stderr`) or Claude Code's caveat before it
 * (`<local-command-caveat>`) without its wrapper tags, anything else unchanged.
 */
export function readableUserText(text: string): string {
  const command = slashCommandText(text);
  if (command !== null) return command;
  const wrapped = TAG("local-command-stdout").exec(text) ?? TAG("local-command-stderr").exec(text) ?? TAG("local-command-caveat").exec(text);
  if (wrapped && text.trim().startsWith("<local-command-")) return wrapped[1]!.trim();
  return text;
}

/** ESC-introduced sequences anser does not parse: charset selection (`ESC ( B`) and OSC titles. */
const UNPARSED_ESCAPES = /\u001b[()*+][0-9A-Za-z]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[=>78cDEHMNOZ]/g;
/** Any control character left after colour parsing, except tab and newline. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/**
 * Prepares terminal output for the ANSI colour parser: drops the escape sequences that carry
 * no colour (charset selection, window titles, keypad modes) and turns carriage-return
 * progress redraws into their last state per line.
 */
export function cleanTerminalText(text: string): string {
  return text
    .replace(UNPARSED_ESCAPES, "")
    .replace(/\u001b(?:\[[0-9;?]*)?$/, "") // a sequence cut off by a preview clip
    .split("\n")
    .map((line) => (line.includes("\r") ? lastRedraw(line) : line))
    .join("\n");
}

function lastRedraw(line: string): string {
  const parts = line.split("\r").filter((p) => p !== "");
  return parts.at(-1) ?? "";
}

/** Removes control characters a parser left in a text chunk (never shown as `▯` boxes). */
export const stripControls = (text: string): string => text.replace(CONTROL, "");

/** True when the text holds an ESC character (terminal colour or cursor codes). */
export const hasEscapes = (text: string): boolean => text.includes("\u001b");
