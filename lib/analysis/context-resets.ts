/** Seed 003's context-reset detector and risk summary over a session's token points. */
import { DEFAULT_RESET_THRESHOLD, riskLevel, type ContextReset, type TokenPoint } from "@/lib/analysis/schema";
import { type RiskLevel } from "@/lib/workspace/schema";

/**
 * Seed 003's reset detector, fed one token point at a time (streaming): a reset is a point whose
 * `cache_read` is > 0 and lower than the previous non-zero `cache_read` minus `threshold`
 * (strictly: `cache_read < prev - threshold`). Points with `cache_read` 0 are ignored and do not
 * move the baseline, exactly as the seed's `count_context_resets`.
 */
export class ResetDetector {
  private prev = 0;
  private readonly found: Omit<ContextReset, "position_percent">[] = [];

  /** @param threshold drop in tokens that counts as a reset (default 10,000). */
  constructor(private readonly threshold: number = DEFAULT_RESET_THRESHOLD) {}

  /** Observes one point (line, cache read, cache creation, uncached input). */
  observe(point: Pick<TokenPoint, "line" | "cache_read" | "cache_creation" | "input">): void {
    const cacheRead = point.cache_read;
    if (cacheRead <= 0) return;
    if (this.prev > 0 && cacheRead < this.prev - this.threshold) {
      this.found.push({
        session_line: point.line,
        from_tokens: this.prev,
        to_tokens: cacheRead,
        cache_creation_tokens: point.cache_creation,
        total_input_tokens: point.input + (point.cache_creation ?? 0) + cacheRead,
      });
    }
    this.prev = cacheRead;
  }

  /** Resets seen so far, in line order. */
  get resetLines(): readonly number[] {
    return this.found.map((r) => r.session_line);
  }

  /**
   * The resets with `position_percent` = line / lineCount × 100, one decimal.
   * @param lineCount the session's physical line count (≥ 1).
   */
  finish(lineCount: number): ContextReset[] {
    const total = Math.max(1, lineCount);
    return this.found.map((r) => ({ ...r, position_percent: Math.round((r.session_line / total) * 1000) / 10 }));
  }
}

/**
 * Detects context resets over a finished token progression (seed 003). Convenience wrapper over
 * {@link ResetDetector} for callers that already hold the points (the forensics overview).
 * @param points token points in line order.
 * @param lineCount the session's physical line count, for `position_percent`.
 * @param threshold drop in tokens that counts as a reset (default 10,000).
 */
export function detectContextResets(points: readonly TokenPoint[], lineCount: number, threshold: number = DEFAULT_RESET_THRESHOLD): ContextReset[] {
  const detector = new ResetDetector(threshold);
  for (const p of points) detector.observe(p);
  return detector.finish(lineCount);
}

/** Risk level and reset count of a reset list (seed 003: low 0–1 resets, high 2+). */
export function summarizeResets(resets: readonly ContextReset[]): { reset_count: number; risk_level: RiskLevel } {
  return { reset_count: resets.length, risk_level: riskLevel(resets.length) };
}
