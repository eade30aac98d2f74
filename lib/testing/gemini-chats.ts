/** Test fixture: big Gemini CLI chats made from the reader's replay fixture. */
import { readFileSync } from "node:fs";
import path from "node:path";

/** The Gemini reader's replay fixture (rewinds, same-id replacements, `$set`, an unknown record; a half-written last line). */
export const GEMINI_REPLAY_FIXTURE = path.resolve(__dirname, "../sources/gemini-cli/__fixtures__/replay.jsonl");

/**
 * A JSONL Gemini chat of at least `minBytes` (UTF-8): the replay fixture's header, then its whole
 * lines again and again, each copy's message and call ids its own (`u-2.7`, `read_file_2_7`), so
 * each copy replays as the fixture does. Ends with a line break.
 */
export function bigGeminiChat(minBytes: number): string {
  const text = readFileSync(GEMINI_REPLAY_FIXTURE, "utf8");
  const [header, ...body] = text.slice(0, text.lastIndexOf("\n")).split("\n");
  const out = [header!];
  for (let k = 0, size = header!.length; size < minBytes; k++) {
    for (const line of body) {
      const copy = line.replace(/"(ctx|u|g)-(\d+)"/g, `"$1-$2.${k}"`).replace(/(run_shell_command_1|read_file_2)/g, `$1_${k}`);
      out.push(copy);
      size += Buffer.byteLength(copy) + 1;
    }
  }
  return `${out.join("\n")}\n`;
}
