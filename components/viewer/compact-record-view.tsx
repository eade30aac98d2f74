import { useMemo } from "react";

import { formatBytes } from "@/components/format/format";
import { Snippet } from "@/components/search/snippet";
import { oneLine } from "@/lib/format/one-line";
import { displayText, hasEscapes, readableUserText } from "@/lib/format/display-text";
import type { CompactToolResult, CompactToolUse, ViewerCompactRecord } from "@/lib/session-reader/schema";

import { Badge, type BadgeTone } from "./badge";
import { AnsiText } from "./ansi-text";
import { ClampedText, MAX_RENDER_CHARS } from "./clamped-text";
import { EditDiff } from "./edit-diff";
import { MarkdownText } from "./markdown-text";
import { hasMatch, useSearchHighlight } from "./search-highlight";
import { LineFlags } from "./line-flags";
import { compactHasReplacementChar, MALFORMED_SUMMARY } from "./record-flags";

function typeTone(recordType: string): BadgeTone {
  if (recordType === "user") return "accent";
  if (recordType === "assistant") return "ok";
  return "neutral";
}

function statusTone(status: string): BadgeTone {
  if (/error|fail|denied|cancel/i.test(status)) return "danger";
  if (/ok|success|complete/i.test(status)) return "ok";
  return "neutral";
}

function ToolUseView({ use, highlight }: { use: CompactToolUse; highlight: RegExp | null }) {
  return (
    <div className="flex min-w-0 items-baseline gap-2 rounded bg-canvas px-1.5 py-0.5">
      <span className="shrink-0 font-sans text-2xs font-semibold text-accent">
        ⚙ <AnsiText text={use.name} />
      </span>
      <ClampedText text={use.input_summary} previewChars={300} previewLines={2} className="min-w-0 flex-1" highlight={highlight} />
      {use.truncated && (
        <Badge tone="warn" title="The tool input was trimmed in compact mode.">
          truncated
        </Badge>
      )}
    </div>
  );
}

function ToolResultView({ result, highlight }: { result: CompactToolResult; highlight: RegExp | null }) {
  return (
    <div className="min-w-0 rounded border border-line px-1.5 py-0.5">
      <div className="flex min-w-0 flex-wrap items-center gap-1.5">
        <span className="font-sans text-2xs font-semibold text-muted">↳ result</span>
        <Badge>{result.kind}</Badge>
        {result.status && <Badge tone={statusTone(result.status)}>{result.status}</Badge>}
        {result.file_path && (
          <span className="min-w-0 truncate" title={displayText(result.file_path)}>
            <AnsiText text={result.file_path} />
          </span>
        )}
        {result.command && (
          <span className="min-w-0 truncate" title={displayText(result.command.slice(0, 2000))}>
            $ <AnsiText text={result.command.slice(0, 500)} />
          </span>
        )}
        <span className="font-sans text-2xs text-faint tabular-nums">{formatBytes(result.raw_bytes)}</span>
        {result.truncated && (
          <Badge tone="warn" title="Payload over 1 KiB: compact mode keeps its head and tail only.">
            truncated
          </Badge>
        )}
      </div>
      {result.preview && <ClampedText text={result.preview} previewChars={400} previewLines={3} className="text-ink/80" highlight={highlight} />}
    </div>
  );
}

/**
 * One compact record (seed 000): type, summary, text, tool uses and tool results; plus what the
 * viewer reads from the raw line (issue 12): a slash command as typed instead of its tags, and
 * the text of summary, system and progress records.
 */
export function CompactRecordView({ record, isLast }: { record: ViewerCompactRecord; isLast: boolean }) {
  const { command, detail, headline, edits } = record.view;
  const search = useSearchHighlight();
  const highlight = search?.regex ?? null;
  // An agent's prompt or reply has a record type of its own (`prompt`, `user.message`…): `view.message` says it is one.
  const message = record.record_type === "user" || record.record_type === "assistant" || record.view.message === true;
  const editTools = new Set(edits.map((e) => e.tool));
  const malformed = record.summary === MALFORMED_SUMMARY;
  const invalidUtf8 = useMemo(() => compactHasReplacementChar(record), [record]);
  // A local command's output and its caveat read without Claude Code's wrapper tags.
  const text = record.record_type === "user" && record.text_preview !== null ? readableUserText(record.text_preview) : record.text_preview;
  // The search's current line whose match sits in a part compact mode trims (a long result's middle): its snippet shows it (issue 37).
  const hidden = search !== null && search.line === record.line && search.snippet !== null && !showsMatch(record, text, highlight);
  return (
    <div className="flex min-w-0 flex-col gap-1 py-1">
      <div className="flex min-w-0 flex-wrap items-center gap-1.5">
        <Badge tone={malformed ? "danger" : typeTone(record.view.message ? (record.role ?? "") : record.record_type)}>{record.record_type}</Badge>
        {record.role && record.role !== record.record_type && <span className="text-2xs text-muted">{record.role}</span>}
        {headline ? (
          <span data-testid="record-headline" className="min-w-0 font-mono text-xs font-semibold break-all text-ink" title={displayText(record.summary)}>
            <AnsiText text={headline} highlight={highlight} />
          </span>
        ) : (
          <span className="min-w-0 font-sans text-xs wrap-anywhere text-ink/80">
            <AnsiText text={record.summary} />
          </span>
        )}
        {record.content_kinds.length > 0 && (
          <span className="font-sans text-2xs text-faint">{record.content_kinds.join(" · ")}</span>
        )}
        {record.duplicate_of !== null && (
          <a href={`#L${record.duplicate_of}`} className="font-sans text-2xs text-accent hover:underline">
            duplicate of L{record.duplicate_of}
          </a>
        )}
        <LineFlags
          malformed={malformed}
          isLast={isLast}
          invalidUtf8={invalidUtf8}
          truncated={record.truncated}
          rawBytes={record.raw_bytes}
          sha256={record.raw_sha256}
        />
      </div>
      {command ? (
        <p className="flex min-w-0 items-baseline gap-1.5">
          <span className="font-sans text-2xs text-muted">command</span>
          <code data-testid="slash-command" className="min-w-0 rounded bg-accent-soft px-1 text-[0.8125rem] font-semibold wrap-anywhere text-accent">
            <AnsiText text={command.slice(0, MAX_RENDER_CHARS)} />
          </code>
        </p>
      ) : text !== null && text.trim() === "" ? (
        // A text of only blank lines ("\n\n" happens) reads as a note, not as an empty band.
        <span className="font-sans text-2xs text-faint">(whitespace only)</span>
      ) : (
        text &&
        // Terminal output (a local command's, such as `/context`) is not Markdown: its colours show as colour.
        (message && !hasEscapes(text) ? <MarkdownText text={text} highlight={highlight} /> : <ClampedText text={text} className="text-[0.8125rem] leading-5" highlight={highlight} />)
      )}
      {detail && !(headline && (headline.startsWith("Hook ") || headline.includes(oneLine(detail, 60).replace(/…$/, "")))) && <ClampedText text={detail} previewChars={300} previewLines={2} className="text-ink/75" highlight={highlight} />}
      {record.tool_uses.map((use, i) => (editTools.has(use.name) ? null : <ToolUseView key={i} use={use} highlight={highlight} />))}
      {edits.map((edit, i) => (
        <EditDiff key={`edit-${i}`} edit={edit} />
      ))}
      {record.tool_results.map((result, i) => (
        <ToolResultView key={i} result={result} highlight={highlight} />
      ))}
      {hidden && (
        <p data-testid="trimmed-match" className="rounded border border-highlight-edge bg-canvas px-1.5 py-0.5 wrap-anywhere">
          <span className="mr-1.5 font-sans text-2xs text-muted">match in the trimmed part:</span>
          <Snippet text={search.snippet!} />
        </p>
      )}
    </div>
  );
}

/** Whether the record shows a match of the search itself (its text, headline, detail, tool inputs or result previews). */
function showsMatch(record: ViewerCompactRecord, text: string | null, highlight: RegExp | null): boolean {
  const { headline, detail } = record.view;
  return [text, headline, detail, ...record.tool_uses.map((u) => u.input_summary), ...record.tool_results.map((r) => r.preview)].some((t) => hasMatch(highlight, t));
}
