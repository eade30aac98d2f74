/**
 * Which files under a source's root a team push sends (issue 39, `casefile push`): the files the
 * source's discovery reads, and nothing else a home folder holds (Gemini's and OpenCode's homes
 * keep credentials beside the sessions). Each source answers it in its folder
 * (`lib/sources/<source>/pushed-files.ts`), through its descriptor (`SourceFormat.pushed`).
 */

/**
 * What a pushed file is: `transcript` when a session is read from it (a main transcript, an
 * agent's session file or database; subagents, tool results, exports and side files are not),
 * `appendOnly` when its writer only ever appends (a grown copy then receives only the new bytes).
 */
export type PushedFileClass = { transcript: boolean; appendOnly: boolean };

/** A source's rule for the files a push sends from one of its roots. */
export type PushedFiles = {
  /**
   * The class of the file at `rel` (relative to a folder root, `/`-separated; folders no source
   * reads inside, `node_modules` and `.git`, are already left out), or null when the source does
   * not read it (credentials, settings, logs).
   */
  file(rel: string): PushedFileClass | null;
  /** Whether a one-file root's file (always sent: its source decides what it makes of it, as in a local prepare) only grows, given its name. */
  oneFileAppendOnly(name: string): boolean;
  /** The only folders of a root that are read, when the root holds any of them (a Codex home: its rollout folders); absent: the whole root. */
  homeFolders?: readonly string[];
};

/** A transcript its writer only appends to (JSONL sessions, Aider's history). */
export const APPEND_ONLY_TRANSCRIPT: PushedFileClass = { transcript: true, appendOnly: true };

/** A file the source reads beside its sessions (tool results, exports, project records), which may be rewritten. */
export const SIDE_FILE: PushedFileClass = { transcript: false, appendOnly: false };
