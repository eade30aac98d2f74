/** The skim's fast timestamp reader: `YYYY-MM-DDTHH:MM:SS.mmmZ` read from its bytes, the day's epoch kept across lines. */
import { civilToEpochMs, daysInMonth } from "@/lib/sources/common/timestamps";

/** Characters of a `YYYY-MM-DDTHH:MM:SS.mmmZ` timestamp. */
export const SHAPED_STAMP_CHARS = 24;

/** Reads the timestamp shape Claude Code and Codex write; consecutive lines mostly share their day, whose epoch is kept. */
export class ShapedStamps {
  /** The day of the last timestamp read (`year * 10000 + month * 100 + day`) and its epoch ms at midnight. */
  private day = -1;
  private dayMs = 0;

  /**
   * Epoch ms of the `YYYY-MM-DDTHH:MM:SS.mmmZ` timestamp at `b[from, from + 24)` when those bytes
   * are one (every byte checked: digits, separators, a valid date and time), else -1.
   */
  read(b: Uint8Array, from: number): number {
    if (b[from + 4] !== 0x2d || b[from + 7] !== 0x2d || b[from + 10] !== 0x54 || b[from + 13] !== 0x3a || b[from + 16] !== 0x3a || b[from + 19] !== 0x2e || b[from + 23] !== 0x5a) return -1;
    const year = digits(b, from, 4);
    const month = digits(b, from + 5, 2);
    const day = digits(b, from + 8, 2);
    const hour = digits(b, from + 11, 2);
    const minute = digits(b, from + 14, 2);
    const second = digits(b, from + 17, 2);
    const ms = digits(b, from + 20, 3);
    if (!(year >= 1 && month >= 1 && month <= 12 && day >= 1 && (day <= 28 || day <= daysInMonth(year, month)) && hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59 && ms >= 0)) return -1;
    const key = year * 10000 + month * 100 + day;
    if (key !== this.day) {
      this.day = key;
      this.dayMs = civilToEpochMs(year, month, day);
    }
    return this.dayMs + ((hour * 60 + minute) * 60 + second) * 1000 + ms;
  }
}

/** The decimal number of `n` ASCII digits at `b[at]`, or -1 when one is not a digit. */
function digits(b: Uint8Array, at: number, n: number): number {
  let v = 0;
  for (let i = 0; i < n; i++) {
    const d = b[at + i]! - 0x30;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}
