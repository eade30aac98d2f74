/** Every tool_use of a Claude Code transcript in file order, for linking a chat export's tool lines to it (seed 003 Q2). */
import { walkRecords } from "@/lib/jsonl/record-walk";
import { isJsonObject, parseJsonObject } from "@/lib/sources/common/json-object";
import type { TranscriptToolUse } from "@/lib/sources/common/source-format";

const ASSISTANT = Buffer.from('"assistant"');
const TOOL_USE = Buffer.from('"tool_use"');

/**
 * Every tool_use of a Claude transcript in file order, streamed (only assistant records that
 * name `"tool_use"` are parsed).
 * @throws the fs error when the file cannot be read.
 */
export async function claudeToolUses(filePath: string): Promise<TranscriptToolUse[]> {
  const out: TranscriptToolUse[] = [];
  await walkRecords(filePath, 0, Infinity, (bytes, line) => {
    if (bytes.indexOf(ASSISTANT) === -1 || bytes.indexOf(TOOL_USE) === -1) return;
    const record = parseJsonObject(bytes.toString("utf8"));
    const content = isJsonObject(record?.message) && Array.isArray(record.message.content) ? record.message.content : [];
    for (const block of content) {
      if (!isJsonObject(block) || block.type !== "tool_use" || typeof block.name !== "string") continue;
      const input = isJsonObject(block.input) ? block.input : {};
      const arg = [input.file_path, input.command, input.pattern, input.skill, input.url].find((v) => typeof v === "string");
      out.push({ line, name: block.name, arg: (arg as string | undefined) ?? "" });
    }
  }, { chunkBytes: 4 << 20, asyncReads: true });
  return out;
}

