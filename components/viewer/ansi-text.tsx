import { Fragment, type ReactNode, useMemo } from "react";

import { ansiChunks } from "@/lib/format/ansi";

import { splitMatches } from "./search-highlight";

/** Classes of a control character's token (shared with the Markdown renderer's). */
export const CONTROL_TOKEN_CLASS = "mx-px rounded-sm bg-warn-soft px-0.5 font-mono text-[0.85em] text-warn";

/** A control or bidi character's visible escape (`␛`, `\u202E`): a small token named in its tooltip. */
export function ControlToken({ text, name }: { text: string; name: string }) {
  return (
    <span data-control="" title={name} className={CONTROL_TOKEN_CLASS}>
      {text}
    </span>
  );
}

/**
 * Renders transcript text as it may reach the page (issue 35 item 10, issue 36 item 5): terminal
 * colours become styled spans, other terminal sequences go, control and bidi characters show as
 * {@link ControlToken}s; `highlight` matches become `<mark>`. Every view of transcript text uses it.
 */
export function AnsiText({ text, highlight = null }: { text: string; highlight?: RegExp | null }) {
  const chunks = useMemo(() => ansiChunks(text), [text]);
  const marked = (t: string) =>
    highlight
      ? splitMatches(t, highlight).map((piece, i) => (piece.match ? <mark key={i}>{piece.text}</mark> : <Fragment key={i}>{piece.text}</Fragment>))
      : t;
  return (
    <>
      {chunks.map((c, i) => {
        const content: ReactNode = c.control ? <ControlToken text={c.text} name={c.control} /> : marked(c.text);
        return c.style ? (
          <span key={i} data-ansi="" style={c.style}>
            {content}
          </span>
        ) : (
          <Fragment key={i}>{content}</Fragment>
        );
      })}
    </>
  );
}
