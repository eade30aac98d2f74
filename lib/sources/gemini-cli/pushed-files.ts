/** Which files of a Gemini CLI root a team push sends (issue 39; lib/sources/common/pushed-files). */
import { SIDE_FILE, type PushedFiles } from "@/lib/sources/common/pushed-files";

/**
 * Chats (`*.json` legacy, rewritten whole; `*.jsonl`, appended) under a `chats` folder, and the
 * project records discovery reads (`projects.json`, `.project_root`); never `oauth_creds.json`,
 * settings or logs.
 */
export const geminiPushedFiles: PushedFiles = {
  file(rel) {
    const parts = rel.split("/");
    const name = parts.at(-1)!;
    if (rel === "projects.json" || name === ".project_root") return SIDE_FILE;
    if (parts.includes("chats") && (name.endsWith(".json") || name.endsWith(".jsonl"))) return { transcript: true, appendOnly: name.endsWith(".jsonl") };
    return null;
  },
  oneFileAppendOnly: (name) => !name.endsWith(".json"),
};
