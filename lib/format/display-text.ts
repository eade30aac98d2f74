/** Transcript text made readable: slash commands, terminal escapes and control characters. */
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

/*
 * Terminal sequences and control characters (issue 35 item 10, issue 36 item 5). Every path that
 * shows transcript text (viewer, banner, table, search snippets, evidence quotes) goes through
 * these rules: ANSI/terminal sequences become colour ({@link cleanTerminalText} keeps SGR for the
 * colour parser) or go ({@link stripTerminal}); every other control character and every bidi
 * control is shown as a visible escape ({@link splitControls}, {@link displayText}), never passed
 * to the page as is, where it would be invisible or reorder the text around it (U+202E).
 */

/**
 * One ECMA-48 escape sequence: CSI (private modes such as `ESC[?2026h` too), OSC ended by BEL or
 * ST (an OSC-8 hyperlink is two of them: its text stays), DCS/SOS/PM/APC strings, nF escapes
 * (`ESC ( B`) and single-character escapes (`ESC 7`, `ESC =`), or one cut off at the end of a
 * clipped text (a lone trailing ESC too; an unended OSC only to the end of its line).
 */
const TERMINAL_SEQUENCE =
  /\u001b(?:\[[0-?]*[ -/]*[@-~]|[\]PX^_][^\u0007\u001b]*(?:\u0007|\u001b\\)|\[[0-?]*[ -/]*$|[\]PX^_][^\u0007\u001b\n]*$|[ -/]+[0-~]|[0-~]|$)/g;
/** Select Graphic Rendition (colours, bold…): the one sequence the colour parser reads. */
const SGR = /^\u001b\[[0-9;:]*m$/;

/**
 * Prepares terminal output for the ANSI colour parser: drops every escape sequence but SGR
 * colour codes (cursor moves, private modes like `ESC[?2026h`, window titles, OSC-8 link
 * wrappers, charset selection) and turns carriage-return progress redraws into their last state
 * per line.
 */
export function cleanTerminalText(text: string): string {
  return redraws(text.replace(TERMINAL_SEQUENCE, (seq) => (SGR.test(seq) ? seq : "")));
}

/**
 * Terminal output as plain text: {@link cleanTerminalText} without the colours either. Text
 * without an ESC is returned as is (its carriage returns are left to {@link splitControls}).
 */
export function stripTerminal(text: string): string {
  return hasEscapes(text) ? redraws(text.replace(TERMINAL_SEQUENCE, "")) : text;
}

function redraws(text: string): string {
  if (!text.includes("\r")) return text;
  return text
    .split("\n")
    .map((line) => (line.includes("\r") ? lastRedraw(line) : line))
    .join("\n");
}

/** What a terminal shows of a line redrawn after carriage returns: its last state, in the colours set before it. */
function lastRedraw(line: string): string {
  const parts = line.split("\r").filter((p) => p !== "");
  const colours = parts.slice(0, -1).join("").match(/\u001b\[[0-9;:]*m/g)?.join("") ?? "";
  return colours + (parts.at(-1) ?? "");
}

/** True when the text holds an ESC character (terminal colour or cursor codes). */
export const hasEscapes = (text: string): boolean => text.includes("\u001b");

/**
 * A character never passed to the page as is: C0 controls but tab and newline (a carriage
 * return only when no newline follows it), DEL, C1 controls, and the bidi controls (ALM, LRM,
 * RLM, LRE/RLE/PDF/LRO/RLO, LRI/RLI/FSI/PDI).
 */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;

const CONTROL_NAMES: Record<number, string> = {
  0x00: "null",
  0x07: "bell",
  0x08: "backspace",
  0x0d: "carriage return",
  0x1b: "escape",
  0x7f: "delete",
  0x061c: "arabic letter mark",
  0x200e: "left-to-right mark",
  0x200f: "right-to-left mark",
  0x202a: "left-to-right embedding",
  0x202b: "right-to-left embedding",
  0x202c: "pop directional formatting",
  0x202d: "left-to-right override",
  0x202e: "right-to-left override",
  0x2066: "left-to-right isolate",
  0x2067: "right-to-left isolate",
  0x2068: "first strong isolate",
  0x2069: "pop directional isolate",
};

/**
 * The visible stand-in of a control character: its Unicode control picture for C0 and DEL
 * (`␛`, `␀`, `␡`), `\u202E` for C1 and bidi controls.
 */
export function controlEscape(char: string): string {
  const code = char.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  return `\\u${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** What a control character is, for a tooltip: `U+202E right-to-left override`. */
export function controlName(char: string): string {
  const code = char.charCodeAt(0);
  const name = CONTROL_NAMES[code];
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}${name ? ` ${name}` : " control character"}`;
}

/** A run of text, or one control character as its visible escape (`control` is its name). */
export type TextPiece = { text: string; control?: string };

/**
 * `text` cut into plain runs and control characters, each control its own piece holding its
 * visible escape ({@link controlEscape}) and its name ({@link controlName}), for the UI to show
 * as a styled token. Text without a control is one piece.
 */
export function splitControls(text: string): TextPiece[] {
  const out: TextPiece[] = [];
  let last = 0;
  for (const m of text.matchAll(CONTROL)) {
    if (m.index > last) out.push({ text: text.slice(last, m.index) });
    out.push({ text: controlEscape(m[0]), control: controlName(m[0]) });
    last = m.index + m[0].length;
  }
  if (last < text.length || out.length === 0) out.push({ text: text.slice(last) });
  return out;
}

/** `text` with every control character replaced by its visible escape ({@link controlEscape}). */
export const escapeControls = (text: string): string => text.replace(CONTROL, controlEscape);

/**
 * Transcript text as a plain string safe to show anywhere (a banner, a table cell, a tooltip, a
 * snippet): terminal sequences stripped, control and bidi characters as visible escapes
 * (`\u202E`, `␛`). Idempotent.
 */
export const displayText = (text: string): string => escapeControls(stripTerminal(text));
