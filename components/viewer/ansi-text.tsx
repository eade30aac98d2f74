import { Fragment, useMemo } from "react";

import { ansiChunks } from "@/lib/format/ansi";

import { splitMatches } from "./search-highlight";

/** Renders text that may hold terminal colour codes: colours become styled spans; `highlight` matches become `<mark>`. */
export function AnsiText({ text, highlight = null }: { text: string; highlight?: RegExp | null }) {
  const chunks = useMemo(() => ansiChunks(text), [text]);
  const marked = (t: string) =>
    highlight
      ? splitMatches(t, highlight).map((piece, i) => (piece.match ? <mark key={i}>{piece.text}</mark> : <Fragment key={i}>{piece.text}</Fragment>))
      : t;
  return (
    <>
      {chunks.map((c, i) =>
        c.style ? (
          <span key={i} data-ansi="" style={c.style}>
            {marked(c.text)}
          </span>
        ) : (
          <Fragment key={i}>{marked(c.text)}</Fragment>
        ),
      )}
    </>
  );
}
