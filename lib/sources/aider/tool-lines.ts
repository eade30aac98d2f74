/**
 * What Aider's own output lines (`> …` in the chat history, agent-formats.md §4) say: the token
 * and cost report, the model announcement, the outcome of an edit, an error. Pure line readers.
 */
import type { AgentTokenUsage } from "@/lib/sources/common/agent-source";

/** A token figure as Aider prints it: `412`, `1,234` (older versions), `3.2k`, `12k`, `1.5M`. */
const FIGURE = String.raw`(\d[\d,]*(?:\.\d+)?[kKmM]?)`;
/** A dollar amount as Aider prints it: `0.01`, `0.0042`. */
const DOLLARS = String.raw`\$(\d[\d,]*(?:\.\d+)?)`;
/** The cost half of the report: `Cost: $0.01 message, $0.05 session.` (`request` before v0.50). */
const COST_REPORT = String.raw`Cost: ${DOLLARS} (?:message|request), ${DOLLARS} session\.?`;
const TOKENS_LINE = new RegExp(
  String.raw`^Tokens: ${FIGURE} sent(?:, ${FIGURE} cache write)?(?:, ${FIGURE} cache hit)?, ${FIGURE} received\.?(?:\s+${COST_REPORT})?$`,
);
const COST_LINE = new RegExp(String.raw`^${COST_REPORT}$`);

/**
 * A number as Aider prints token counts: commas dropped, `k` ×1,000, `M` ×1,000,000, rounded to
 * a whole token (`3.2k` → 3200). Null when it is not a number.
 */
export function parseTokenFigure(figure: string): number | null {
  const m = /^(\d[\d,]*(?:\.\d+)?)([kKmM]?)$/.exec(figure.trim());
  if (m === null) return null;
  const scale = m[2] === "" ? 1 : m[2]!.toLowerCase() === "k" ? 1_000 : 1_000_000;
  return Math.round(Number(m[1]!.replaceAll(",", "")) * scale);
}

/**
 * The usage of one `Tokens: …` report (content without `> `), counted the way docs/sources/aider.md
 * states: `received` is output; `cache hit` is cacheRead, `cache write` is cacheWrite; `sent`
 * includes both, so fresh input is `sent − cache write − cache hit` (never below 0); the message
 * (or request) cost is costUsd, null when the report has none; always approximate (Aider rounds,
 * and counts with its own tokenizer when the provider reports nothing). Null when `content` is
 * not a complete report.
 */
export function parseTokensReport(content: string, model: string | null): AgentTokenUsage | null {
  const m = TOKENS_LINE.exec(content.trim());
  if (m === null) return null;
  const figure = (i: number) => (m[i] === undefined ? 0 : (parseTokenFigure(m[i]!) ?? 0));
  const sent = figure(1);
  const cacheWrite = figure(2);
  const cacheRead = figure(3);
  return {
    model,
    input: Math.max(0, sent - cacheWrite - cacheRead),
    output: figure(4),
    cacheRead,
    cacheWrite,
    reasoning: 0,
    costUsd: m[5] === undefined ? null : Number(m[5].replaceAll(",", "")),
    approximate: true,
  };
}

/** True when `content` starts like a token report (so a line that fails to parse is worth a warning). */
export function looksLikeTokensReport(content: string): boolean {
  return content.startsWith("Tokens:");
}

/**
 * The message cost of a report's second line, `Cost: $0.01 message, $0.05 session.` (Aider breaks
 * the report in two when it has both cache figures), else null.
 */
export function parseCostLine(content: string): number | null {
  const m = COST_LINE.exec(content.trim());
  return m === null ? null : Number(m[1]!.replaceAll(",", ""));
}

/**
 * The main model an announcement names: `Model: gpt-4o with diff edit format`, `Main model:
 * claude-3-7-sonnet with …`, `Models: gpt-4 with …, weak model …` (older). Weak and editor model
 * lines name helpers, not the model that answers, and give null.
 */
export function parseModelAnnouncement(content: string): string | null {
  const m = /^(?:Main model|Model|Models): (\S+)/.exec(content.trim());
  return m === null ? null : m[1]!.replace(/,$/, "");
}

/** An edit outcome line: the file it names and whether the edit was refused. */
export type EditOutcome = { path: string; isError: boolean };

const EDIT_OUTCOMES: readonly { pattern: RegExp; isError: boolean }[] = [
  { pattern: /^Applied edit to (.+)$/, isError: false },
  { pattern: /^Did not apply edit to (.+?) \(--dry-run\)$/, isError: false },
  { pattern: /^Creating empty file (.+)$/, isError: false },
  { pattern: /^Skipping edits to (.+)$/, isError: true },
];

/** The outcome `content` reports for a file (`Applied edit to src/a.py`, …), else null. */
export function parseEditOutcome(content: string): EditOutcome | null {
  const text = content.trim();
  for (const { pattern, isError } of EDIT_OUTCOMES) {
    const m = pattern.exec(text);
    if (m !== null && m[1]!.trim() !== "") return { path: m[1]!.trim(), isError };
  }
  return null;
}

/**
 * Aider's error reports among its output lines (`tool_error` and `tool_output` are both written as
 * `> ` lines, so only known wordings are errors): a reply that broke the edit format, failed
 * SEARCH blocks, an exception, a provider error (`litellm.RateLimitError: …`), a token limit.
 */
const ERROR_LINES: readonly RegExp[] = [
  /^The LLM did not conform to the edit format/,
  /^# \d+ SEARCH\/REPLACE blocks? failed to match/,
  /^Exception while /,
  /^[\w.]*(?:Error|Exception)(?::|\b.*:)/,
  /has hit a token limit/,
  /^Unable to /,
];

/** True when an output line reports an error. */
export function isErrorLine(content: string): boolean {
  const text = content.trim();
  return ERROR_LINES.some((pattern) => pattern.test(text));
}
