import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The workspace the e2e server reads (CASEFILE_WORKSPACE), rebuilt by global-setup.ts. */
export const WORKSPACE_DIR = path.join(REPO_ROOT, "e2e", ".tmp", "workspace");
/** Real Claude Code transcripts shared next to the repo; optional. */
export const CORPUS_DIR = path.resolve(REPO_ROOT, "..", "shared", "corpus", "claude-code");
export const HAS_CORPUS = existsSync(CORPUS_DIR);
export const NO_CORPUS_REASON = `needs the shared corpus at ${CORPUS_DIR} (absent: setup prepared e2e/fixtures only)`;

/** The corpus session with 500+ lines (1,863) and two subagent transcripts. */
export const LONG_SESSION = {
  projectLabel: "spotter-gqc",
  sourceSessionId: "258c7280-ae70-4798-800f-63464d01a85d",
} as const;
