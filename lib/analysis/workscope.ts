import { streamRecordLines } from "@/lib/analysis/record-lines";

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
  for await (const rec of streamRecordLines(filePath, 1 << 20)) {
    const id = findWorkscopePattern(rec.bytes);
    if (id) return id;
  }
  return null;
}
