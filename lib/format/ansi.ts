/** Terminal text with ANSI escapes split into styled chunks for display. */
import Anser from "anser";

import { cleanTerminalText, hasEscapes, stripControls } from "@/lib/format/display-text";

/** Inline style of a run of terminal text (a subset of CSS properties). */
export type AnsiStyle = { color?: string; backgroundColor?: string; fontWeight?: number; fontStyle?: string; textDecoration?: string; opacity?: number };

/** One run of terminal text and its style (undefined when plain). Client-safe. */
export type AnsiChunk = { text: string; style: AnsiStyle | undefined };

/**
 * Terminal output as coloured spans (anser parses the SGR codes): never raw `ESC[…m` junk.
 * Text without escapes is returned as one unstyled chunk, so the common case costs nothing.
 */
export function ansiChunks(text: string): AnsiChunk[] {
  if (!hasEscapes(text)) return [{ text: stripControls(text), style: undefined }];
  return Anser.ansiToJson(cleanTerminalText(text), { json: true, remove_empty: true }).map((entry) => {
    const style: AnsiStyle = {};
    if (entry.fg) style.color = `rgb(${entry.fg})`;
    if (entry.bg) style.backgroundColor = `rgb(${entry.bg})`;
    const decorations = entry.decorations ?? [];
    if (decorations.includes("bold")) style.fontWeight = 600;
    if (decorations.includes("italic")) style.fontStyle = "italic";
    if (decorations.includes("underline")) style.textDecoration = "underline";
    if (decorations.includes("dim")) style.opacity = 0.7;
    return { text: stripControls(entry.content), style: Object.keys(style).length ? style : undefined };
  });
}

