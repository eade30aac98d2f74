"use client";

import { useCallback, useMemo, useRef } from "react";

import { SessionViewer } from "@/components/viewer/session-viewer";
import type { ChatExport } from "@/lib/analysis/schema";
import type { SessionDetail } from "@/lib/workspace/schema";

/**
 * Claude Code's terminal glyphs `⏺` (U+23FA, a tool call or reply) and `⎿` (U+23BF, its result)
 * are missing from most fonts and show as empty boxes: displayed as `●` and `└`, which every
 * monospace font has. Display only; the export's text is unchanged.
 */
function displayLine(text: string): string {
  return text.replaceAll("\u23fa", "\u25cf").replaceAll("\u23bf", "\u2514");
}

/** Points the viewer at a transcript line through the URL fragment it listens to. */
function showTranscriptLine(line: number, mode: "push" | "replace") {
  const url = `${window.location.pathname}${window.location.search}#L${line}`;
  if (mode === "push") window.history.pushState(null, "", url);
  else window.history.replaceState(null, "", url);
  window.dispatchEvent(new HashChangeEvent("hashchange"));
}

/**
 * The paired chat export beside the transcript (seed 003 Q2). Export lines that show a tool
 * call are linked to that call's transcript line: clicking one opens it, and scrolling the
 * export keeps the transcript on the first linked line in view.
 */
export function ExportView({ detail, chat }: { detail: SessionDetail; chat: ChatExport }) {
  const paneRef = useRef<HTMLDivElement>(null);
  const lastLine = useRef<number | null>(null);
  const frame = useRef<number | null>(null);
  const linkOf = useMemo(() => new Map(chat.links.map((l) => [l.export_line, l])), [chat.links]);

  const onScroll = useCallback(() => {
    if (frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      const pane = paneRef.current;
      if (!pane) return;
      const top = pane.getBoundingClientRect().top;
      for (const el of pane.querySelectorAll<HTMLElement>("[data-session-line]")) {
        if (el.getBoundingClientRect().bottom < top) continue;
        const line = Number(el.dataset.sessionLine);
        if (line !== lastLine.current) {
          lastLine.current = line;
          showTranscriptLine(line, "replace");
        }
        return;
      }
    });
  }, []);

  return (
    // Side by side from 64rem; below, the export above the transcript, half the height each
    // (issue 29: at 480 px the transcript was squeezed into an 80 px column).
    <div className="grid min-h-0 flex-1 grid-cols-1 grid-rows-2 gap-3 lg:grid-cols-[minmax(22rem,2fr)_3fr] lg:grid-rows-1">
      <section aria-label="Chat export" className="flex min-h-0 flex-col rounded border border-line bg-surface">
        <p className="border-b border-line px-3 py-1.5 text-xs text-muted">
          <span className="font-mono text-ink">{chat.file_name}</span> · {chat.lines.length} lines · {chat.links.length} tool lines linked
          {chat.truncated && " · cut for display"}
        </p>
        <div ref={paneRef} onScroll={onScroll} data-testid="export-pane" className="min-h-0 flex-1 overflow-auto py-1 font-mono text-xs leading-5">
          {chat.lines.map((text, i) => {
            const link = linkOf.get(i + 1);
            return (
              <div key={i} data-export-line={i + 1} data-session-line={link?.session_line} className={`flex gap-2 px-3 ${link ? "bg-accent-soft/50" : ""}`}>
                <span className="w-8 shrink-0 select-none text-right text-faint">{i + 1}</span>
                <span className="min-w-0 flex-1 whitespace-pre-wrap break-words">{displayLine(text) || " "}</span>
                {link && (
                  <button type="button" onClick={() => showTranscriptLine(link.session_line, "push")} className="shrink-0 self-start font-sans text-2xs text-accent hover:underline" title={`${link.tool} call on transcript line ${link.session_line}`}>
                    L{link.session_line}
                  </button>
                )}
              </div>
            );
          })}
        </div>
      </section>
      <div className="flex min-h-0 flex-col overflow-hidden rounded border border-line">
        <SessionViewer detail={detail} />
      </div>
    </div>
  );
}
