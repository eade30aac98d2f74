// Counts as people read them: thousands separated, the same text on the server and in the browser.

const countFormat = new Intl.NumberFormat("en-US");

/** 1863 → "1,863" (fixed locale so server and client render the same text). */
export function formatCount(n: number): string {
  return countFormat.format(n);
}
