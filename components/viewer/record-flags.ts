import type { CompactRecord } from "@/lib/session-reader/schema";

/** The compact summary the reader gives a line that is not a JSON object (contract §4.4). */
export const MALFORMED_SUMMARY = "Malformed JSONL line.";

const REPLACEMENT_CHAR = "\uFFFD";

/**
 * Lines are decoded as UTF-8 with replacement (contract §1.6), so invalid bytes reach the
 * browser as U+FFFD. Seeing one is the signal that the raw line had invalid UTF-8.
 */
export function hasReplacementChar(...texts: (string | null | undefined)[]): boolean {
  return texts.some((text) => !!text && text.includes(REPLACEMENT_CHAR));
}

export function compactHasReplacementChar(record: CompactRecord): boolean {
  return hasReplacementChar(
    record.summary,
    record.text_preview,
    ...record.tool_uses.map((u) => u.input_summary),
    ...record.tool_results.flatMap((r) => [r.preview, r.file_path, r.command]),
  );
}

export type ParsedLine = { kind: "object"; value: unknown } | { kind: "malformed" } | { kind: "clipped" };

/** Full mode: a line is well-formed when it parses to a JSON object (arrays and scalars are not records). */
export function parseRawLine(raw: string, clipped: boolean): ParsedLine {
  if (clipped) return { kind: "clipped" };
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? { kind: "object", value } : { kind: "malformed" };
  } catch {
    return { kind: "malformed" };
  }
}
