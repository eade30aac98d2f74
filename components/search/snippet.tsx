import { AnsiText } from "@/components/viewer/ansi-text";
import { HIT_CLOSE, HIT_OPEN } from "@/lib/catalog/schema";
import { stripTerminal } from "@/lib/format/display-text";

/**
 * A search snippet with its `[[match]]` marks shown as highlights. Terminal sequences are
 * stripped (a snippet is cut from a line: its colours would start mid-sequence) and control
 * and bidi characters show as visible tokens (issue 35 item 10).
 */
export function Snippet({ text }: { text: string }) {
  const plain = stripTerminal(text);
  const parts: { text: string; hit: boolean }[] = [];
  let at = 0;
  while (at < plain.length) {
    const open = plain.indexOf(HIT_OPEN, at);
    const close = open === -1 ? -1 : plain.indexOf(HIT_CLOSE, open + HIT_OPEN.length);
    if (open === -1 || close === -1) {
      parts.push({ text: plain.slice(at), hit: false });
      break;
    }
    if (open > at) parts.push({ text: plain.slice(at, open), hit: false });
    parts.push({ text: plain.slice(open + HIT_OPEN.length, close), hit: true });
    at = close + HIT_CLOSE.length;
  }
  return (
    <>
      {parts.map((p, i) =>
        p.hit ? (
          <mark key={i} className="rounded-sm bg-highlight px-0.5 text-ink">
            <AnsiText text={p.text} />
          </mark>
        ) : (
          <AnsiText key={i} text={p.text} />
        ),
      )}
    </>
  );
}
