/**
 * Aider's chat history split into runs (agent-formats.md §4): `.aider.chat.history.md` grows by
 * one run per Aider launch, each opened by `# aider chat started at YYYY-MM-DD HH:MM:SS` (local
 * time, no zone). A run is one Casefile session; this module finds runs in a file's physical
 * lines and gives each its stable id and workspace file name. Pure: no I/O.
 */

/** The file Aider appends every run to, in the folder it was started in. */
export const HISTORY_FILE_NAME = ".aider.chat.history.md";

const HEADER_PREFIX = "# aider chat started at ";
const LOCAL_STAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** A wall-clock time as Aider writes it (`datetime.now()`, no zone); month 1–12. */
export type LocalStamp = { year: number; month: number; day: number; hour: number; minute: number; second: number };

/**
 * The text after `# aider chat started at ` (trimmed) when `line` is a run header, else null.
 * The header is the only single-`#` line Aider writes; a header with a bad date is still a header.
 */
export function runHeaderStamp(line: string): string | null {
  return line.startsWith(HEADER_PREFIX) ? line.slice(HEADER_PREFIX.length).trim() : null;
}

/** `YYYY-MM-DD HH:MM:SS` read as a calendar time (years 1000–9999, real dates and clock times), else null. */
export function parseLocalStamp(raw: string): LocalStamp | null {
  const m = LOCAL_STAMP.exec(raw);
  if (m === null) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const valid = year >= 1000 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour < 24 && minute < 60 && second < 60;
  return valid ? { year, month, day, hour, minute, second } : null;
}

/**
 * A local stamp as ISO 8601 UTC (`…Z`), read in the zone of this process (`TZ`, else the
 * machine's): Aider wrote `datetime.now()` on the machine whose history this is. A wall time that
 * does not exist (a daylight-saving gap) moves forward by the gap, as JavaScript's `Date` does.
 */
export function localStampToIso(s: LocalStamp): string {
  const date = new Date(2000, 0, 1, 0, 0, 0, 0);
  date.setFullYear(s.year, s.month - 1, s.day);
  date.setHours(s.hour, s.minute, s.second, 0);
  return date.toISOString();
}

/** One run's place in a history file. */
export type RunSpan = {
  /** 1-based physical line of its header (1 for the lines before the first header). */
  startLine: number;
  /** Its last physical line (inclusive): the line before the next header, or the file's last. */
  endLine: number;
  /** The header's text after the prefix; null for the lines before the first header. */
  stamp: string | null;
  /** The header's time, or null (no header, or a malformed date). */
  local: LocalStamp | null;
};

/**
 * The runs of a history file, in order: each header starts one, up to the next header. Lines
 * before the first header are a run of their own only when one of them is not blank and a header
 * follows (a file without any header is not an Aider history). O(lines).
 */
export function splitRuns(lines: readonly string[]): RunSpan[] {
  const runs: RunSpan[] = [];
  let preambleHasText = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const stamp = runHeaderStamp(line);
    if (stamp === null) {
      if (runs.length === 0 && line.trim() !== "") preambleHasText = true;
      continue;
    }
    if (runs.length === 0 && preambleHasText) runs.push({ startLine: 1, endLine: i, stamp: null, local: null });
    const last = runs.at(-1);
    if (last !== undefined) last.endLine = i;
    runs.push({ startLine: i + 1, endLine: lines.length, stamp, local: parseLocalStamp(stamp) });
  }
  return runs;
}

/** A run's identity in Casefile. */
export type RunIdentity = { sourceSessionId: string; fileName: string };

/**
 * Stable ids and unique workspace file names for the runs of one history file, whose folder is
 * named `projectName`: `<project>-<YYYYMMDDTHHMMSS>` and `<project>.<YYYY-MM-DDTHH-MM-SS>.md` from
 * the header's local time. A run without a readable time (malformed header, lines before the first
 * header) and a run repeating an earlier run's second use its first line instead
 * (`<project>-L<line>`, `<project>.L<line>.md`; the repeat gets `-L<line>` after its time). Aider
 * only appends, so a run's time and first line never change and the ids stay stable.
 */
export function runIdentities(runs: readonly RunSpan[], projectName: string): RunIdentity[] {
  const fileStem = safeFileStem(projectName);
  const seen = new Set<string>();
  return runs.map((run) => {
    if (run.local === null) return { sourceSessionId: `${projectName}-L${run.startLine}`, fileName: `${fileStem}.L${run.startLine}.md` };
    const { year, month, day, hour, minute, second } = run.local;
    const p = (n: number) => String(n).padStart(2, "0");
    const compact = `${year}${p(month)}${p(day)}T${p(hour)}${p(minute)}${p(second)}`;
    const repeat = seen.has(compact) ? `-L${run.startLine}` : "";
    seen.add(compact);
    return {
      sourceSessionId: `${projectName}-${compact}${repeat}`,
      fileName: `${fileStem}.${year}-${p(month)}-${p(day)}T${p(hour)}-${p(minute)}-${p(second)}${repeat}.md`,
    };
  });
}

/** A folder name usable at the start of a file name: no separators, controls, reserved characters or leading dots. */
function safeFileStem(name: string): string {
  const stem = name.replace(/[\x00-\x1f\x7f/\\:*?"<>|\s]/g, "_").replace(/^\.+/, "");
  return stem === "" ? "aider" : stem;
}
