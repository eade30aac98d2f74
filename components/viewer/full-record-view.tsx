"use client";

import { useMemo, useState } from "react";

import { formatBytes } from "@/components/format/format";
import { VIEWER_RAW_CLIP_BYTES, type ViewerFullRecord } from "@/lib/session-reader/schema";

import { AnsiText } from "./ansi-text";
import { MAX_RENDER_CHARS } from "./clamped-text";
import { LineFlags } from "./line-flags";
import { hasReplacementChar, parseRawLine } from "./record-flags";

/** The collapsed raw line is one clipped line; the rest would only be hidden by CSS anyway. */
const ONE_LINE_CHARS = 2_000;

function clipNote(shown: number, total: number) {
  return shown < total ? `Display clipped at ${shown.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} characters.` : null;
}

/** One raw line (full mode): collapsed to one line, pretty-printed JSON when expanded. */
export function FullRecordView({ record, isLast }: { record: ViewerFullRecord; isLast: boolean }) {
  const [expanded, setExpanded] = useState(false);
  const parsed = useMemo(() => parseRawLine(record.raw_line, record.clipped), [record]);
  // A line of a text history (an agent's Markdown) is not JSON by design, never malformed.
  const malformed = parsed.kind === "malformed" && record.view.textLine !== true;
  const invalidUtf8 = useMemo(() => hasReplacementChar(record.raw_line), [record]);
  const body = useMemo(() => {
    if (!expanded) return null;
    const text = parsed.kind === "object" ? JSON.stringify(parsed.value, null, 2) : record.raw_line;
    return { text: text.slice(0, MAX_RENDER_CHARS), note: clipNote(Math.min(text.length, MAX_RENDER_CHARS), text.length) };
  }, [expanded, parsed, record]);

  return (
    <div className="min-w-0 py-0.5">
      <div className="flex min-w-0 items-center gap-1.5">
        <button
          type="button"
          aria-expanded={expanded}
          aria-label={`${expanded ? "Collapse" : "Expand"} line ${record.line}`}
          onClick={() => setExpanded((v) => !v)}
          className="w-4 shrink-0 text-faint hover:text-accent"
        >
          {expanded ? "▾" : "▸"}
        </button>
        <code className="min-w-0 flex-1 truncate whitespace-pre">{record.raw_line ? <AnsiText text={record.raw_line.slice(0, ONE_LINE_CHARS)} /> : "(empty line)"}</code>
        <LineFlags
          malformed={malformed}
          isLast={isLast}
          invalidUtf8={invalidUtf8}
          clipped={record.clipped}
          rawBytes={record.raw_bytes}
          sha256={record.raw_sha256}
        />
      </div>
      {body && (
        <div className="mt-1 ml-5 rounded border border-line bg-canvas p-2">
          {malformed && <p className="mb-1 font-sans text-2xs text-danger">Not valid JSON — raw text:</p>}
          {parsed.kind === "clipped" && (
            <p className="mb-1 font-sans text-2xs text-warn">
              Line clipped by the server to its first {formatBytes(VIEWER_RAW_CLIP_BYTES)} of {formatBytes(record.raw_bytes)}, so it
              cannot be parsed here. Raw start:
            </p>
          )}
          <pre className="break-all whitespace-pre-wrap">
            <AnsiText text={body.text} />
          </pre>
          {body.note && <p className="mt-1 font-sans text-2xs text-warn">{body.note}</p>}
        </div>
      )}
    </div>
  );
}
