/** Workscope IDs (seed 003 Q2) found in transcripts and chat exports. */
import { walkRecords } from "@/lib/jsonl/record-walk";

/** Seed 003 Q2: `Workscope ID: YYYYMMDD-HHMMSS`, first match wins. */
const PATTERN_BYTES = Buffer.from("Workscope ID: ");
const ID_SHAPE = /^\d{8}-\d{6}$/;
/** ANSI escapes a terminal `date` wraps around its output (`ESC(B ESC[m`). */
const ANSI = /\x1b(?:\[[0-9;?]*[A-Za-z]|\([A-Za-z0-9]|[@-Z\\-_])/g;

/**
 * The first Workscope ID of the seed's pattern `Workscope ID: (\d{8}-\d{6})` in `bytes`
 * (searched without decoding the rest), or null.
 */
export function findWorkscopePattern(bytes: Buffer): string | null {
  for (let at = bytes.indexOf(PATTERN_BYTES); at !== -1; at = bytes.indexOf(PATTERN_BYTES, at + 1)) {
    const id = bytes.toString("latin1", at + PATTERN_BYTES.length, at + PATTERN_BYTES.length + 15);
    if (ID_SHAPE.test(id)) return id;
  }
  return null;
}

/**
 * A tool result whose whole text is one `date +%Y%m%d-%H%M%S` output (ANSI escapes and
 * whitespace removed): the Workscope ID as `/wsd:init` generates it (seed 003 Q2: "generated
 * during the session via the `date` command"). Used only when the session never states the
 * `Workscope ID:` pattern (2.0.58-good, 2.0.60-bad, 2.1.3-bad do not).
 */
export function workscopeFromDateOutput(text: string): string | null {
  const bare = text.replace(ANSI, "").trim();
  return ID_SHAPE.test(bare) ? bare : null;
}

/**
 * The Workscope ID of a chat export or any text file: first match of the seed's pattern,
 * streamed record by record (no whole file in memory). null when absent.
 * @throws the fs error when the file cannot be read.
 */
export async function readWorkscopeId(filePath: string): Promise<string | null> {
  let found: string | null = null;
  await walkRecords(filePath, 0, Infinity, (bytes) => (found = findWorkscopePattern(bytes)) === null, { chunkBytes: 1 << 20, asyncReads: true });
  return found;
}

const TOOL_RESULT = Buffer.from('"tool_result"');
/** Records at most this long are parsed while looking for the `date` output fallback. */
const DATE_PROBE_MAX_BYTES = 4096;

/**
 * A session transcript's Workscope ID as {@link scanClaudeSession} finds it, without the rest
 * of the analysis: the first `Workscope ID: …` match, else the first tool result that is only
 * a `date` output (see {@link workscopeFromDateOutput}). Stops at the first pattern match.
 * @throws the fs error when the file cannot be read.
 */
export async function readSessionWorkscopeId(filePath: string): Promise<string | null> {
  let dateId: string | null = null;
  let patternId: string | null = null;
  await walkRecords(filePath, 0, Infinity, (bytes) => {
    patternId = findWorkscopePattern(bytes);
    if (patternId !== null) return false;
    if (dateId === null && bytes.length <= DATE_PROBE_MAX_BYTES && bytes.indexOf(TOOL_RESULT) !== -1) dateId = dateIdOfRecord(bytes.toString("utf8"));
    return true;
  }, { chunkBytes: 4 << 20, asyncReads: true });
  return patternId ?? dateId;
}

function dateIdOfRecord(text: string): string | null {
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    return null;
  }
  const content = (record as { message?: { content?: unknown } } | null)?.message?.content;
  if (!Array.isArray(content)) return null;
  for (const block of content as { type?: unknown; content?: unknown }[]) {
    if (block?.type !== "tool_result") continue;
    const c = block.content;
    const text = typeof c === "string" ? c : Array.isArray(c) ? ((c as { text?: unknown }[]).find((p) => typeof p?.text === "string")?.text as string | undefined) ?? "" : "";
    const id = workscopeFromDateOutput(text);
    if (id) return id;
  }
  return null;
}
