/** Terminal text with ANSI escapes split into styled chunks for display. */
import Anser from "anser";

import { cleanTerminalText, hasEscapes, splitControls } from "@/lib/format/display-text";

/** Inline style of a run of terminal text (a subset of CSS properties). */
export type AnsiStyle = { color?: string; backgroundColor?: string; fontWeight?: number; fontStyle?: string; textDecoration?: string; opacity?: number };

/**
 * One run of terminal text and its style (undefined when plain). `control` is set on a control
 * or bidi character's visible escape (its name, e.g. `U+202E right-to-left override`), for the
 * UI to show as a token. Client-safe.
 */
export type AnsiChunk = { text: string; style: AnsiStyle | undefined; control?: string };

/**
 * Transcript text as coloured spans (anser parses the SGR codes): never raw `ESC[…m` junk, every
 * other terminal sequence (cursor moves, private modes, OSC-8 link wrappers) dropped, every
 * control or bidi character its own chunk holding a visible escape (`␛`, `\u202E`). Text without
 * escapes or controls is returned as one unstyled chunk, so the common case costs nothing.
 */
export function ansiChunks(text: string): AnsiChunk[] {
  const runs: { text: string; style: AnsiStyle | undefined }[] = hasEscapes(text)
    ? Anser.ansiToJson(cleanTerminalText(text), { json: true, remove_empty: true }).map((entry) => ({ text: entry.content, style: styleOf(entry) }))
    : [{ text, style: undefined }];
  return runs.flatMap((run) => splitControls(run.text).map((piece): AnsiChunk => (piece.control ? { text: piece.text, style: run.style, control: piece.control } : { text: piece.text, style: run.style })));
}

function styleOf(entry: Anser.AnserJsonEntry): AnsiStyle | undefined {
  const style: AnsiStyle = {};
  if (entry.fg) style.color = `rgb(${entry.fg})`;
  if (entry.bg) style.backgroundColor = `rgb(${entry.bg})`;
  const decorations = entry.decorations ?? [];
  if (decorations.includes("bold")) style.fontWeight = 600;
  if (decorations.includes("italic")) style.fontStyle = "italic";
  if (decorations.includes("underline")) style.textDecoration = "underline";
  if (decorations.includes("dim")) style.opacity = 0.7;
  return Object.keys(style).length ? style : undefined;
}
