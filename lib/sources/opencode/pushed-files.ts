/** Which files of an OpenCode data folder a team push sends (issue 39; lib/sources/common/pushed-files). */
import type { PushedFiles } from "@/lib/sources/common/pushed-files";

/** Its databases at the top (discover.ts `DATABASE_NAME`), with their write-ahead logs. */
const DATABASE = /^opencode(-[A-Za-z0-9_.-]+)?\.db(-wal)?$/;

/** The storage folders (storage.ts): a session's file, its messages, their parts. */
const STORAGE = new Set(["session", "message", "part"]);

/**
 * `opencode*.db` (and `-wal`) at the top, `*.json` under `[storage/]session|message|part/`; never
 * `auth.json` or logs. Nothing is append-only (a database, JSON rewritten whole).
 */
export const opencodePushedFiles: PushedFiles = {
  file(rel) {
    const parts = rel.split("/");
    const name = parts.at(-1)!;
    if (parts.length === 1 && DATABASE.test(name)) return { transcript: !name.endsWith("-wal"), appendOnly: false };
    const folder = parts[0] === "storage" ? parts[1] : parts[0];
    if (folder !== undefined && STORAGE.has(folder) && name.endsWith(".json")) return { transcript: folder === "session", appendOnly: false };
    return null;
  },
  oneFileAppendOnly: () => false,
};
