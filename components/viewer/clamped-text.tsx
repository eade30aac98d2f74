"use client";

import { useState } from "react";

import { formatCount } from "@/components/format/format";

import { AnsiText } from "./ansi-text";
import { hasMatch } from "./search-highlight";

/** Never put more than this many characters of one field into the DOM (a line can be 50 MB). */
export const MAX_RENDER_CHARS = 20_000;

type ClampedTextProps = {
  text: string;
  /** Characters shown before "Show more". */
  previewChars?: number;
  /** Lines shown before "Show more" (CSS line clamp). */
  previewLines?: 2 | 3 | 4 | 6;
  className?: string;
  /** Search matches to mark; a long text holding one opens by itself (issue 29). */
  highlight?: RegExp | null;
};

const LINE_CLAMP = { 2: "line-clamp-2", 3: "line-clamp-3", 4: "line-clamp-4", 6: "line-clamp-6" } as const;

/** Long text, clamped to a few lines with a "Show more" toggle, clipped at MAX_RENDER_CHARS; terminal colours render as colour. */
export function ClampedText({ text, previewChars = 600, previewLines = 4, className = "", highlight = null }: ClampedTextProps) {
  const [toggled, setExpanded] = useState<boolean | null>(null);
  const head = text.slice(0, previewChars);
  // Counting newlines in the head only: the full text may be megabytes.
  const isLong = text.length > previewChars || head.split("\n", previewLines + 1).length > previewLines;
  // A match behind "Show more" is shown: the text opens until the reader closes it.
  const expanded = toggled ?? (isLong && hasMatch(highlight, text.slice(0, MAX_RENDER_CHARS)));
  const shown = expanded ? text.slice(0, MAX_RENDER_CHARS) : head;

  return (
    <div className={className}>
      <div className={`wrap-anywhere whitespace-pre-wrap ${expanded ? "" : LINE_CLAMP[previewLines]}`}>
        <AnsiText text={shown} highlight={highlight} />
      </div>
      {expanded && text.length > MAX_RENDER_CHARS && (
        <p className="mt-1 font-sans text-2xs text-warn">
          Display clipped at {formatCount(MAX_RENDER_CHARS)} of {formatCount(text.length)} characters.
        </p>
      )}
      {isLong && (
        <button
          type="button"
          aria-expanded={expanded}
          onClick={() => setExpanded(!expanded)}
          className="mt-0.5 font-sans text-2xs font-medium text-accent hover:underline"
        >
          {expanded ? "Show less" : "Show more"}
        </button>
      )}
    </div>
  );
}
