/** A chat export's tool lines linked to the transcript's tool uses (seed 003 Q2), and the export's text. */
import fs from "node:fs/promises";

import { physicalLines } from "@/lib/jsonl/text-lines";
import type { ChatExport, ExportLink } from "@/lib/analysis/schema";
import type { TranscriptToolUse } from "@/lib/sources/common/source-format";
import { sourceFormat } from "@/lib/sources/formats";

/** Export tool lines: `⏺ Read(docs/x.md)`, `⏺ Bash(date …)`, `⏺ Search(pattern: …)`. */
const TOOL_LINE = /^⏺ ([A-Za-z][\w ]*?)\((.*)$/;
/** The export's display names for tools that the transcript records under another name. */
const ALIASES: Record<string, readonly string[]> = {
  Search: ["Grep", "Glob"],
  Update: ["Edit", "MultiEdit", "Write"],
  Fetch: ["WebFetch"],
  "Web Search": ["WebSearch"],
};
/** How many transcript tool uses a match may skip (tools the export folds away). */
const LOOKAHEAD = 8;
/** Exports above this many lines are cut for display. */
const MAX_LINES = 20_000;
/** Only this many bytes of an export are read (exports are small; this bounds a stray huge file). */
const MAX_BYTES = 8 << 20;
/**
 * Links the export's tool lines to the transcript's tool uses, in order: each `⏺ Name(arg…)`
 * line takes the next unmatched tool use (skipping at most {@link LOOKAHEAD}) whose name equals
 * the display name or one of its aliases; a `Read` also needs the file path to end with the
 * shown argument (exports truncate long arguments, so only the shown prefix is compared).
 * Lines that find no match stay unlinked. Export lines are 1-based.
 */
export function linkExportToTranscript(exportLines: readonly string[], uses: readonly TranscriptToolUse[]): ExportLink[] {
  const links: ExportLink[] = [];
  let next = 0;
  exportLines.forEach((text, i) => {
    const m = TOOL_LINE.exec(text);
    if (!m) return;
    const shown = m[1]!.trim();
    const arg = m[2]!.replace(/\)$/, "");
    const names = ALIASES[shown] ?? [shown];
    for (let j = next; j < Math.min(uses.length, next + LOOKAHEAD); j++) {
      const use = uses[j]!;
      if (!names.includes(use.name)) continue;
      if (use.name === "Read" && !readMatches(use.arg, arg)) continue;
      links.push({ export_line: i + 1, session_line: use.line, tool: use.name });
      next = j + 1;
      return;
    }
  });
  return links;
}

function readMatches(filePath: string, shown: string): boolean {
  const bare = shown.replace(/^~\//, "").replace(/…$/, "");
  if (bare.length === 0) return true;
  return filePath.endsWith(bare) || filePath.includes(bare);
}

/**
 * Reads a chat export for display (at most {@link MAX_LINES} lines) and links its tool lines
 * to the transcript (see {@link linkExportToTranscript}).
 * @throws the fs error when either file cannot be read.
 */
export async function readChatExport(exportPath: string, fileName: string, sessionPath: string, source: string): Promise<ChatExport> {
  const handle = await fs.open(exportPath, "r");
  let text: string;
  try {
    const buf = Buffer.alloc(Math.min((await handle.stat()).size, MAX_BYTES));
    await handle.read(buf, 0, buf.length, 0);
    text = buf.toString("utf8");
  } finally {
    await handle.close();
  }
  const all = physicalLines(text);
  const lines = all.slice(0, MAX_LINES);
  const uses = (await sourceFormat(source)?.toolUses?.(sessionPath)) ?? [];
  return { file_name: fileName, lines, truncated: all.length > MAX_LINES, links: linkExportToTranscript(lines, uses) };
}
