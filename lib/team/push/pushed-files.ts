/**
 * Which files under a source root a push sends: the files that root's source reads (its discovery
 * in lib/sources/<agent>/discover.ts), and nothing else a home folder holds (Gemini's and
 * OpenCode's homes keep credentials beside the sessions). The server accepts only these too.
 */
import fs from "node:fs/promises";
import path from "node:path";

import type { PushKind } from "@/lib/team/push/protocol";

/**
 * What a pushed file is: `transcript` when a session is read from it (a main transcript, an
 * agent's session file or database; subagents, tool results, exports and side files are not),
 * `appendOnly` when its writer only ever appends (a grown copy then receives only the new bytes).
 */
export type PushedFileClass = { transcript: boolean; appendOnly: boolean };

/** Folders no source reads inside (Aider's discovery skips them; nothing else keeps sessions there). */
const SKIPPED_FOLDERS = new Set(["node_modules", ".git"]);

/** OpenCode's databases (lib/sources/opencode/discover `DATABASE_NAME`), with their write-ahead logs. */
const OPENCODE_DATABASE = /^opencode(-[A-Za-z0-9_.-]+)?\.db(-wal)?$/;

/** OpenCode's storage folders (lib/sources/opencode/storage): a session's file, its messages, their parts. */
const OPENCODE_STORAGE = new Set(["session", "message", "part"]);

const JSONL = { transcript: true, appendOnly: true } as const;
const SIDE = { transcript: false, appendOnly: false } as const;

/**
 * The class of the file at `rel` (relative to a root of `kind`, `/`-separated), or null when
 * that source does not read it. A one-file root's file is always read (its source decides what
 * it makes of it, as in a local prepare). Rules, from each source's discovery:
 * - claude: `*.jsonl` (transcripts; `subagents/` and era-1 `agent-*.jsonl` are subagents), files
 *   under `tool-results/`, `*.txt` chat exports;
 * - codex: `*.jsonl` rollouts;
 * - gemini-cli: `projects.json`, `.project_root` files, `*.json` / `*.jsonl` under a `chats` folder;
 * - copilot-cli: `events.jsonl`;
 * - opencode: `opencode*.db` (and `-wal`), `*.json` under `[storage/]session|message|part/`;
 * - aider: `.aider.chat.history.md`, outside `node_modules` and `.git`.
 */
export function classifyPushedFile(kind: PushKind, rel: string, fileRoot: boolean): PushedFileClass | null {
  const parts = rel.split("/");
  const name = parts.at(-1)!;
  if (fileRoot) return { transcript: true, appendOnly: !(kind === "gemini-cli" && name.endsWith(".json")) && kind !== "opencode" };
  if (parts.some((p) => SKIPPED_FOLDERS.has(p))) return null;
  switch (kind) {
    case "claude":
      if (parts.includes("tool-results")) return SIDE;
      if (name.endsWith(".jsonl")) return { transcript: !parts.includes("subagents") && !name.startsWith("agent-"), appendOnly: true };
      return name.endsWith(".txt") ? SIDE : null;
    case "codex":
      return name.endsWith(".jsonl") ? JSONL : null;
    case "gemini-cli":
      if (rel === "projects.json" || name === ".project_root") return SIDE;
      if (parts.includes("chats") && (name.endsWith(".json") || name.endsWith(".jsonl"))) return { transcript: true, appendOnly: name.endsWith(".jsonl") };
      return null;
    case "copilot-cli":
      return name === "events.jsonl" ? JSONL : null;
    case "opencode": {
      if (parts.length === 1 && OPENCODE_DATABASE.test(name)) return { transcript: !name.endsWith("-wal"), appendOnly: false };
      const folder = parts[0] === "storage" ? parts[1] : parts[0];
      if (folder !== undefined && OPENCODE_STORAGE.has(folder) && name.endsWith(".json")) return { transcript: folder === "session", appendOnly: false };
      return null;
    }
    case "aider":
      return name === ".aider.chat.history.md" ? JSONL : null;
  }
}

/** A file a push sends: its absolute path, its path relative to the root, and its class. */
export type PushedFile = { abs: string; rel: string } & PushedFileClass;

/**
 * Every file under `root` (absolute; a folder or one file) that a push of kind `kind` sends, in
 * POSIX path order. A Codex home sends only its `sessions` and `archived_sessions` (as Codex
 * discovery reads them). Folder links are not followed (as lib/sources/common/walk-files);
 * unreadable folders are left out. A missing root has no files.
 */
export async function listPushedFiles(kind: PushKind, root: string): Promise<PushedFile[]> {
  const st = await fs.stat(root).catch(() => null);
  if (st === null) return [];
  if (!st.isDirectory()) {
    const rel = path.basename(root);
    return [{ abs: root, rel, ...classifyPushedFile(kind, rel, true)! }];
  }
  let tops = [""];
  if (kind === "codex") {
    const homeDirs = [];
    for (const dir of ["sessions", "archived_sessions"]) if ((await fs.stat(path.join(root, dir)).catch(() => null))?.isDirectory()) homeDirs.push(dir);
    if (homeDirs.length > 0) tops = homeDirs;
  }
  const out: PushedFile[] = [];
  const pending = [...tops];
  for (let rel = pending.pop(); rel !== undefined; rel = pending.pop()) {
    const entries = await fs.readdir(path.join(root, rel), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const childRel = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) pending.push(childRel);
        continue;
      }
      const abs = path.join(root, childRel);
      if (!entry.isFile() && !(entry.isSymbolicLink() && (await fs.stat(abs).catch(() => null))?.isFile())) continue;
      const cls = classifyPushedFile(kind, childRel, false);
      if (cls) out.push({ abs, rel: childRel, ...cls });
    }
  }
  return out.sort((a, b) => Buffer.compare(Buffer.from(a.rel), Buffer.from(b.rel)));
}
