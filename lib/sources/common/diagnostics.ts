/** The diagnostics every source analyser reports about a transcript besides its turns. */
/**
 * What every source analyser reports about a transcript besides its turns: the audit
 * manifest's counters (contract §1.9) and the facts the session list shows.
 */
export type TranscriptDiagnostics = {
  /** Lines that are not a JSON object, blank lines included. */
  malformedLineCount: number;
  /** JSON-object records without a valid aware timestamp. */
  untimestampedRecordCount: number;
  /** Timestamped records earlier than the previous timestamped record. */
  nonMonotonicTimestampCount: number;
  /** Earliest valid record timestamp, `YYYY-MM-DDTHH:MM:SSZ` (seconds precision), or null. */
  firstEventAt: string | null;
  /** Latest valid record timestamp, same format, or null. */
  lastEventAt: string | null;
  /** Text of the first trigger with non-blank text: trimmed, ≤ 500 characters; null if none. */
  firstUserMessage: string | null;
  /** Record counts by kind; `"malformed"` for malformed lines, `"(none)"` when untyped. */
  recordTypes: Record<string, number>;
};
