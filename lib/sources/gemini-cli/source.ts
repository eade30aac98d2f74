/** Gemini CLI behind the agent source contract (lib/sources/common/agent-source.ts; agent-formats.md §1). */
import type { AgentSource } from "@/lib/sources/common/agent-source";
import { discoverGeminiSessions, geminiDefaultRoots } from "@/lib/sources/gemini-cli/discover";
import { exportGeminiLines } from "@/lib/sources/gemini-cli/export-lines";
import { GEMINI_ABSENT, parseGeminiLines } from "@/lib/sources/gemini-cli/parse";
import { prepareGeminiTurns } from "@/lib/sources/gemini-cli/prepare-turns";
import { geminiPushedFiles } from "@/lib/sources/gemini-cli/pushed-files";
import { geminiLinesFromFacts, readGeminiLines } from "@/lib/sources/gemini-cli/read-lines";

/**
 * Gemini CLI: sessions under `~/.gemini/tmp/<project>/chats/` (discover.ts), legacy `.json` exported
 * one line per message and `.jsonl` copied byte for byte (export-lines.ts), read back by replaying
 * header, messages, `$set` and `$rewindTo` (parse.ts; prepare's turns by prepare-turns.ts, a window's lines by read-lines.ts). Token rule: docs/sources/gemini-cli.md.
 */
export const geminiSource: AgentSource = {
  name: "gemini-cli",
  label: "Gemini CLI",
  absent: GEMINI_ABSENT,
  defaultRoots: geminiDefaultRoots,
  pushed: geminiPushedFiles,
  discover: discoverGeminiSessions,
  exportLines: exportGeminiLines,
  parseLines: parseGeminiLines,
  prepareTurns: prepareGeminiTurns,
  readLines: readGeminiLines,
  linesFromFacts: geminiLinesFromFacts,
};
