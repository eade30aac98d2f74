import { useMemo } from "react";

import { ansiChunks } from "@/lib/format/ansi";

/** Renders text that may hold terminal colour codes: colours become styled spans. */
export function AnsiText({ text }: { text: string }) {
  const chunks = useMemo(() => ansiChunks(text), [text]);
  return (
    <>
      {chunks.map((c, i) =>
        c.style ? (
          <span key={i} data-ansi="" style={c.style}>
            {c.text}
          </span>
        ) : (
          c.text
        ),
      )}
    </>
  );
}
