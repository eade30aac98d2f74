import path from "node:path";

import type { LineIndex } from "@/lib/jsonl/line-index";
import { scanMemoryBuffer } from "@/lib/jsonl/json-scan";
import { streamLineBytes } from "@/lib/jsonl/stream-line-bytes";
import { BLANK, skimLine } from "@/lib/sources/common/skim";
import { CODEX_ENVELOPE, envelopeSuffices } from "@/lib/sources/codex/skim-plan";
import type { ReportWindow } from "@/lib/sources/common/window";
import type { CodexAnalysis } from "@/lib/sources/codex/analysis";
import { CodexAnalyzer } from "@/lib/sources/codex/analyze-core";
import type { CodexUsageLog } from "@/lib/sources/codex/token-usage";
import { toTranscriptReadError } from "@/lib/sources/codex/read-error";
import { legacyReportReason } from "@/lib/sources/codex/report-session";

const READ_CHUNK = 8 << 20;
const READ_HEADROOM = 4 << 20;

/**
 * Streams a Codex rollout once (memory: two 12 MiB read buffers plus the longest line) and analyses it with
 * `CodexAnalyzer` (contract §1.3, §1.4, §1.7, §1.8): triggers, in-window turns with output
 * tokens and display usage, project root, `source_session_id`, exclusion reasons, fork history
 * and audit counters. Reading stops at a `session_meta` that excludes the session for certain
 * (a child or a prompt_diary session: "child bodies are never read"). After the pass, legacy
 * `codex_python_sdk` sessions are checked against their cwd's report-workspace provenance.
 * @param filePath the rollout file (either line format).
 * @param window report window for turn inclusion; null = all time.
 * @param usageLog when given, fed every line (per-turn display usage from the same pass, issue 13).
 * @param options `fingerprints: false` skips the fork fingerprints (`fork.history` is then null,
 *   `fork.qualifies` still set; see `CodexAnalyzeOptions`), and then lines whose kind is read
 *   only by its envelope are skimmed, not parsed (lib/sources/codex/skim-plan); `skim: false`
 *   parses every line (the reference the skim is tested against); `onIndex` receives the file's
 *   line index built in the same pass (not when reading stopped early).
 * @throws AppError not_found when the file does not exist, io_error when it cannot be read.
 */
export async function analyzeCodexTranscript(filePath: string, window: ReportWindow, usageLog?: CodexUsageLog, options: { fingerprints?: boolean; skim?: boolean; onIndex?: (index: LineIndex) => void } = {}): Promise<CodexAnalysis> {
  const analyzer = new CodexAnalyzer(window, { fileStem: path.basename(filePath, ".jsonl"), usageLog, fingerprints: options.fingerprints });
  const skim = options.skim !== false;
  try {
    // Byte-level boundaries (the line index's scanner). While the analysis allows it, a line is
    // skimmed where it was read (grammar checked, only the envelope built) and parsed whole only
    // when its kind is read further (issue 13); else it is decoded once and parsed.
    const buffers = [scanMemoryBuffer(READ_HEADROOM + READ_CHUNK), scanMemoryBuffer(READ_HEADROOM + READ_CHUNK)] as const;
    for await (const { line, bytes, start, end } of streamLineBytes(filePath, { onIndex: options.onIndex, buffers, chunkBytes: READ_CHUNK, headroomBytes: READ_HEADROOM })) {
      const skimmed = skim && analyzer.skimmable ? skimLine(bytes, start, end, CODEX_ENVELOPE) : null;
      if (skimmed !== null && skimmed !== BLANK && envelopeSuffices(skimmed.record)) analyzer.pushRecord(line, skimmed.record);
      else analyzer.push(line, bytes.toString("utf8", start, end));
      if (analyzer.excluded) break;
    }
  } catch (error) {
    throw toTranscriptReadError(filePath, error);
  }
  const analysis = analyzer.finish();
  if (analysis.subagentReason === null && analysis.reportReason === null && analysis.legacySdkCandidates.length > 0) {
    analysis.reportReason = await legacyReportReason(analysis.legacySdkCandidates);
  }
  return analysis;
}
