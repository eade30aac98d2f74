import { Fragment } from "react";

import { HIT_CLOSE, HIT_OPEN } from "@/lib/catalog/schema";

/** A search snippet with its `[[match]]` marks shown as highlights. */
export function Snippet({ text }: { text: string }) {
  const parts: { text: string; hit: boolean }[] = [];
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf(HIT_OPEN, at);
    const close = open === -1 ? -1 : text.indexOf(HIT_CLOSE, open + HIT_OPEN.length);
    if (open === -1 || close === -1) {
      parts.push({ text: text.slice(at), hit: false });
      break;
    }
    if (open > at) parts.push({ text: text.slice(at, open), hit: false });
    parts.push({ text: text.slice(open + HIT_OPEN.length, close), hit: true });
    at = close + HIT_CLOSE.length;
  }
  return (
    <>
      {parts.map((p, i) =>
        p.hit ? (
          <mark key={i} className="rounded-sm bg-highlight px-0.5 text-ink">
            {p.text}
          </mark>
        ) : (
          <Fragment key={i}>{p.text}</Fragment>
        ),
      )}
    </>
  );
}
